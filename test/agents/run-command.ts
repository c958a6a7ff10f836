/** Runs a hook command the way an agent does (`sh -c '<command>'`), with a payload on stdin. */
import { spawn } from 'node:child_process';

export function runHookCommand(command: string, stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(stdin);
  });
}

export function runArgv(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd as string, args, { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}
