/**
 * What a tile's program is started with: its conversation (fresh, resumed, or none), the
 * agent's first-party link (hooks injected, or over ssh), belltower's shell integration for a
 * shell, and the command line and environment all of that makes. Nothing runs yet.
 */
import { argsForResume, conversationArgs, freshConversation } from '../agents/conversation.js';
import { firstPartyFor } from '../agents/first-party/registry.js';
import type { AgentProfile } from '../agents/profile.js';
import { profileFor } from '../agents/registry.js';
import { shellKind, shellLaunch } from '../agents/shell-integration.js';
import type { Evidence } from '../record/format.js';
import { sshArgv } from '../remote/remote-launch.js';
import type { SessionOptions } from '../session/session.js';
import { FirstPartyLink } from './first-party-link.js';
import type { TileSetup } from './tile-options.js';

export interface TileLaunch {
  profile: AgentProfile;
  /** The tile's key (its hooks' key, its process marker's value). */
  tileKey: string;
  /** The agent's conversation id as given at launch. */
  conversationId: string | null;
  /** The conversation was resumed (not started) at launch. */
  resumed: boolean;
  link: FirstPartyLink;
  session: SessionOptions;
  answerPsp: boolean;
}

export function prepareLaunch(options: TileSetup, onEvidence: (evidence: Evidence) => void): TileLaunch {
  const profile = profileFor(options.spec.agent);
  const run = options.run ?? 1;
  const label = `tile ${options.id}`;
  const log = options.logger;
  const tileKey = `tile-${process.pid}-${options.id}${run > 1 ? `-${run}` : ''}`;
  const finished = options.restored?.finished;
  const conversation = finished ? null : options.conversation === undefined ? freshConversation(profile.name) : options.conversation;
  const resumed = conversation?.resume === true;
  // A resumed agent must not be handed its first prompt again (`claude "fix the tests"`).
  const remote = options.spec.remote;
  let args = resumed && !remote ? argsForResume(profile.name, options.spec.args) : options.spec.args;
  let env: Record<string, string | undefined> = { ...options.env, BELLTOWER_TILE: tileKey };
  if (profile.name === 'shell' && !remote) {
    const kind = shellKind(options.spec.file);
    if (kind) {
      const launch = shellLaunch(kind, env);
      args = [...launch.args, ...args];
      env = { ...env, ...launch.env };
    } else {
      log('warn', `${label}: no shell integration for ${options.spec.file} (belltower has it for bash, zsh and fish): its state comes from OSC 133 marks if the shell prints them`);
    }
  }
  const link = new FirstPartyLink({
    wiring: firstPartyFor(profile.name),
    agent: profile.name,
    remote,
    sshFile: options.spec.file,
    hooks: options.hooks !== false && !finished,
    remoteHooks: options.remoteHooks === true,
    hookServer: options.hookServer,
    runtimeDir: options.runtimeDir,
    tileKey,
    cwd: options.cwd,
    env,
    baseEnv: options.env,
    version: options.agentVersion,
    conversation,
    args,
    logger: log,
    label,
    onEvidence,
  });
  const { injection } = link;
  if (injection) env = { ...env, ...injection.env };
  if (remote) {
    // The agent's own additions go into the remote command, after its program word.
    const additions = {
      inserted: conversationArgs(profile.name, conversation),
      ...(resumed && remote.program ? { args: argsForResume(profile.name, remote.program.args) } : {}),
    };
    const hooks = link.remote;
    args = sshArgv(remote, hooks ? { ...additions, sshOptions: hooks.sshOptions, wrap: hooks.wrap } : additions);
  } else {
    args = [...(injection?.args ?? []), ...(injection?.startsConversation ? [] : conversationArgs(profile.name, conversation)), ...(injection?.userArgs ?? args)];
  }
  const answerPsp = options.answerPsp ?? profile.answerPsp;
  const restoredScreen = options.restored?.screen;
  return {
    profile,
    tileKey,
    conversationId: conversation?.id ?? null,
    resumed,
    link,
    answerPsp,
    session: {
      file: options.spec.file,
      args,
      cwd: options.cwd,
      env,
      cols: options.cols,
      rows: options.rows,
      answerPspQuery: answerPsp,
      ...(options.scrollback !== undefined ? { scrollback: options.scrollback } : {}),
      logger: (level, message, data) => log(level, `${label}: ${message}`, data),
      ...(restoredScreen ? { restore: restoredScreen } : {}),
    },
  };
}
