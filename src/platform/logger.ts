/**
 * The logger callback every resource owner accepts. belltower never writes to stdout/stderr
 * itself: the UI owns the terminal, so diagnostics go wherever the caller routes them (a log file,
 * the "why?" view, a test's array).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type Logger = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

/** The default: say nothing. */
export const silentLogger: Logger = () => {};
