/** Where a command's words go: stdout for results, stderr for messages. Injected so tests can read them. */
export interface Output {
  line(text: string): void;
  error(text: string): void;
}

export const processOutput: Output = {
  line: (text) => process.stdout.write(`${text}\n`),
  error: (text) => process.stderr.write(`${text}\n`),
};
