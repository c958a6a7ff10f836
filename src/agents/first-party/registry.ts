/** Each agent's first-party wiring, by name: the coding agents have one; a shell or a command reports nothing first-hand. */
import type { AgentName } from '../profile.js';
import { CLAUDE_WIRING } from './claude.js';
import { CODEX_WIRING } from './codex.js';
import { GEMINI_WIRING } from './gemini.js';
import type { FirstPartyWiring } from './wiring.js';

export function firstPartyFor(agent: AgentName): FirstPartyWiring | null {
  switch (agent) {
    case 'claude':
      return CLAUDE_WIRING;
    case 'codex':
      return CODEX_WIRING;
    case 'gemini':
      return GEMINI_WIRING;
    case 'shell':
    case 'command':
      return null;
  }
}
