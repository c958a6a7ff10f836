/**
 * Codex's first-party wiring: `-c` flags for its notify program and its hooks (its SessionStart
 * hook marked reviewed for that launch, where its version asks for a review), and its rollout
 * named by that hook, or (before 0.171) found among the files Codex holds open, or from notify's
 * thread id. Its turn-complete program arrives through
 * the same relay as the hooks, as event "notify".
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CODEX_NOTIFY_EVENT, prepareCodexSession } from '../codex-injection.js';
import { codexHookReview } from '../codex-hook-trust.js';
import { codexTranscriptTarget, rolloutAmong } from '../codex-rollout-path.js';
import { hookEvidence } from './wiring.js';
import type { FirstPartyWiring } from './wiring.js';

export const CODEX_WIRING: FirstPartyWiring = {
  versionMatters: true,
  inject(input) {
    const codexHome = input.env.CODEX_HOME ?? join(homedir(), '.codex');
    const session = prepareCodexSession({ stateDir: input.runtimeDir, server: input.server, tileKey: input.tileKey, onHook: input.onHook, codexHome, version: input.version });
    return {
      args: session.args,
      env: session.env,
      transcriptFor: (event, payload, following) => codexTranscriptTarget(codexHome, event, payload, following),
      // Without a SessionStart hook (before 0.171) nothing names the rollout until the first
      // turn's notify: it is found among the files Codex holds open once a turn starts.
      ...(session.sessionStartHook ? { refusedOnScreen: codexHookReview } : { transcriptAmongOpenFiles: (paths: readonly string[]) => rolloutAmong(codexHome, paths) }),
      startsConversation: false,
      dispose: () => session.dispose(),
    };
  },
  evidence: (event, payload) => (event === CODEX_NOTIFY_EVENT ? { type: 'notify', payload } : hookEvidence(event, payload)),
};
