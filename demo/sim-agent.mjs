#!/usr/bin/env node
// A simulated coding agent for `belltower demo`: it speaks OSC 7501 and animates its title the
// way Claude Code does, and runs turns on its own (a script stands in for the user).
//   node sim-agent.mjs <name> <plan>   plan: comma-separated steps, e.g. "work:3,done,rest:4,ask,work:2,done"
const [name = 'agent', plan = 'work:3,done,rest:5'] = process.argv.slice(2);
const ESC = '\x1b';
const osc = (code, text) => process.stdout.write(`${ESC}]${code};${text}\x07`);
const psp = (fields) => osc(7501, `${fields}:app=sim-${name}`);
const b64 = (s) => Buffer.from(s).toString('base64');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (line) => process.stdout.write(`${line}\r\n`);
const VERBS = ['Brewed', 'Churned', 'Cooked', 'Sautéed', 'Worked'];

async function work(seconds) {
  psp('state=working');
  const end = Date.now() + seconds * 1000;
  let frame = 0;
  while (Date.now() < end) {
    osc(0, `${frame++ % 2 ? '◑' : '◐'} ${name}`);
    say(`  ${name}: thinking… (${Math.ceil((end - Date.now()) / 1000)}s)`);
    await sleep(500);
  }
}

async function main() {
  osc(0, `✳ ${name}`);
  psp('state=idle');
  say(`${name} ready`);
  let turn = 0;
  for (;;) {
    for (const step of plan.split(',')) {
      const [what, arg] = step.split(':');
      const seconds = Number(arg ?? 2);
      if (what === 'work') await work(seconds);
      else if (what === 'done') {
        turn += 1;
        osc(0, `✳ ${name}`);
        say(`✻ ${VERBS[turn % VERBS.length]} for ${seconds}s · done`);
        psp('state=done');
      } else if (what === 'ask') {
        psp(`state=blocked:kind=permission:msg=${b64('approve Bash: make deploy')}`);
        say(`  ${name}: may I run "make deploy"? (approving in ${seconds}s)`);
        await sleep(seconds * 1000);
      } else if (what === 'rest') await sleep(seconds * 1000);
    }
  }
}
process.on('SIGHUP', () => {
  psp('state=clear');
  process.exit(0);
});
main();
