/** A line of styled segments as Ink text. */
import { Text } from 'ink';
import type { Segment } from '../header.js';

export function Segments({ segments }: { segments: readonly Segment[] }) {
  return (
    <Text wrap="truncate">
      {segments.map((s, i) => (
        <Text key={i} {...(s.color ? { color: s.color } : {})} bold={s.bold ?? false} dimColor={s.dim ?? false} inverse={s.inverse ?? false}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
