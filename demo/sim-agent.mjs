#!/usr/bin/env node
// A simulated coding agent for `belltower demo`: it speaks OSC 7501 and animates its title the way
// Claude Code does, runs turns on its own (a script stands in for the user), and takes prompts typed
// into it: a line and Enter runs a turn, `/clear` clears, its permission
// question is answered with its digits (1 yes, 2 don't ask again, 3 no) or y / n.
//   node sim-agent.mjs <name> <plan>
//   plan: comma-separated steps — rest:S, work:S, done, ask:S (a permission prompt, approved after S
//   seconds unless answered), background:S (the turn ends with a job still running for S seconds),
//   clear (a /clear: redraws, never a finished turn)
const [name = 'agent', plan = 'work:3,done,rest:5'] = process.argv.slice(2);
const ESC = '\x1b';
const out = (s) => process.stdout.write(s);
const osc = (code, text) => out(`${ESC}]${code};${text}\x07`);
const psp = (fields) => osc(7501, `${fields}:app=sim-${name}`);
const b64 = (s) => Buffer.from(s).toString('base64');
// Lines are cut to the terminal's width, as a full-screen agent's renderer would.
const width = () => process.stdout.columns || 80;
// Wide glyphs (CJK, most emoji) take two columns: a line that wraps would leave its tail behind.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60\u2705\u{1f300}-\u{1faff}]/u;
const columns = (chars) => chars.reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0);
const fit = (line) => {
  // eslint-disable-next-line no-control-regex
  const chars = [...line.replace(/\x1b\[[0-9;]*m/g, '')];
  if (columns(chars) <= width() - 1) return line;
  const kept = [];
  for (const ch of chars) {
    if (columns([...kept, ch]) > width() - 2) break;
    kept.push(ch);
  }
  return `${kept.join('')}…`;
};
const say = (line) => out(`\r${ESC}[2K${fit(line)}\r\n`);
const status = (line) => out(`\r${ESC}[2K${fit(line)}`);
const dim = (s) => `${ESC}[2m${s}${ESC}[22m`;
const color = (n, s) => `${ESC}[38;5;${n}m${s}${ESC}[39m`;
const VERBS = ['Brewed', 'Churned', 'Cooked', 'Sautéed', 'Worked'];
const SPINNER = ['·', '✢', '*', '✶', '✻', '✽'];
const TASKS = ['reading the tests', 'editing src/app.ts', 'running npm test', 'checking types', 'writing docs', 'refactoring 日本語 names', 'fixing ✅ the build'];

let typed = '';
let wake = () => {};
const prompts = [];
let answer = null;
let asking = false;
/** Answered "don't ask again": make commands run without asking. */
let alwaysAllowed = false;

/** Sleep up to `seconds`, waking early when the user submits a prompt or answers. */
function pause(seconds) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

function promptLine() {
  status(`${color(244, '›')} ${typed}`);
}

let turn = 0;
async function work(seconds, what) {
  psp(`state=working:msg=${b64(what)}`);
  const end = Date.now() + seconds * 1000;
  let frame = 0;
  say(color(75, `● ${what}`));
  while (Date.now() < end) {
    osc(0, `${frame % 2 ? '◑' : '◐'} ${name}`);
    status(`${color(215, SPINNER[frame % SPINNER.length])} ${TASKS[(turn + frame) % TASKS.length]}… ${dim(`(${Math.ceil((end - Date.now()) / 1000)}s · esc to interrupt)`)}`);
    frame++;
    await new Promise((r) => setTimeout(r, 250));
  }
  out(`\r${ESC}[2K`);
}

function finish(seconds, extra = '') {
  turn += 1;
  osc(0, `✳ ${name}`);
  say(color(114, `✻ ${VERBS[turn % VERBS.length]} for ${seconds}s${extra}`));
}

async function userTurn(text) {
  say(`${color(244, '›')} ${text}`);
  if (text.trim() === '/clear') return clear();
  await work(3, `answering "${text.slice(0, 30)}"`);
  finish(3);
  psp('state=done');
  promptLine();
}

async function clear() {
  psp('state=working');
  osc(0, `◐ ${name}`);
  out(`${ESC}[2J${ESC}[H`);
  await new Promise((r) => setTimeout(r, 150));
  osc(0, `✳ ${name}`);
  psp('state=idle');
  say(dim('(conversation cleared)'));
  promptLine();
}

async function step(what, seconds) {
  if (what === 'rest') return pause(seconds);
  if (what === 'work') return work(seconds, TASKS[turn % TASKS.length]);
  if (what === 'done') {
    finish(2);
    psp('state=done');
    return promptLine();
  }
  if (what === 'clear') {
    say(`${color(244, '›')} /clear`);
    return clear();
  }
  if (what === 'ask') {
    if (alwaysAllowed) {
      say(dim('  make deploy: allowed without asking (you said not to ask again)'));
      return work(1, 'deploying');
    }
    psp(`state=blocked:kind=permission:msg=${b64('approve Bash: make deploy')}`);
    // Drawn as Claude Code draws its dialog, so that the grid's y / Y / N / T find their options.
    say(color(221, `◆ May I run "make deploy"? ${dim(`(approving in ${seconds}s)`)}`));
    const options = ['❯ 1. Yes', "  2. Yes, and don't ask again for make commands", '  3. No, and tell me what to do differently (esc)'];
    for (const option of options) say(`  ${option}`);
    answer = null;
    asking = true;
    await pause(seconds);
    asking = false;
    // The dialog goes once answered, as a real agent's does.
    out(`${ESC}[${options.length}A\r${ESC}[J`);
    if (answer === 'deny') {
      say(dim('  denied: tell me what to do instead'));
      psp('state=idle');
      answer = null;
      return promptLine();
    }
    if (answer === 'always') alwaysAllowed = true;
    say(dim(answer === 'always' ? "  approved: I won't ask again for make" : '  approved'));
    answer = null;
    return work(1, 'continuing');
  }
  if (what === 'background') {
    // The turn ends, but a job it started goes on: OSC 7501 says done while a child record is open.
    const id = `job-${turn}`;
    psp(`state=working:id=${id}:title=${b64('npm test --watch')}`);
    finish(3, ' · 1 shell still running');
    psp('state=done');
    await pause(seconds);
    psp(`state=clear:id=${id}`);
    say(dim(`  background job ${id} finished`));
    return promptLine();
  }
}

async function main() {
  osc(0, `✳ ${name}`);
  psp('state=idle');
  say(`${color(213, '✻')} ${name} ${dim('— a simulated agent. Focus it (⏎) and type a prompt.')}`);
  promptLine();
  for (;;) {
    for (const s of plan.split(',')) {
      while (prompts.length > 0) await userTurn(prompts.shift());
      const [what, arg] = s.split(':');
      await step(what, Number(arg ?? 2));
    }
  }
}

/** The dialog's keys: its digits, and y / n as a shortcut. */
const ANSWER_KEYS = { 1: 'allow', 2: 'always', 3: 'deny', y: 'allow', n: 'deny' };

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (data) => {
  for (const ch of data) {
    if (ch === '\r' || ch === '\n') {
      if (typed.trim() !== '') prompts.push(typed);
      typed = '';
      wake();
    } else if (ch === '\x7f' || ch === '\b') {
      typed = typed.slice(0, -1);
      promptLine();
    } else if (ch === '\x03') {
      typed = '';
      promptLine();
    } else if (asking && typed === '' && ANSWER_KEYS[ch]) {
      answer = ANSWER_KEYS[ch];
      wake();
    } else if (ch >= ' ') {
      typed += ch;
      promptLine();
    }
  }
});
process.on('SIGHUP', () => {
  psp('state=clear');
  process.exit(0);
});
main();
