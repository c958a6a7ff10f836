/**
 * Who else can write: world-writable always counts; group-writable counts unless the group is the
 * user's own private group (the umask 002 of Debian, Ubuntu and Fedora), decided from the account
 * files and never assumed for a group they do not list.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPrivateGroup, othersCanWrite } from '../../src/platform/others-can-write.js';

const passwd = ['root:x:0:0:root:/root:/bin/bash', 'alice:x:1000:1000:Alice:/home/alice:/bin/bash', 'bob:x:1001:1001::/home/bob:/bin/sh', 'carol:x:1002:1000::/home/carol:/bin/sh', ''].join('\n');
const group = ['root:x:0:', 'alice:x:1000:', 'bob:x:1001:', 'devs:x:2000:alice,bob', 'solo:x:2001:alice', 'empty:x:2002:', ''].join('\n');

describe('isPrivateGroup', () => {
  it("is true for a group with no member but the user and nobody else's primary group", () => {
    expect(isPrivateGroup(1001, 1001, { passwd, group })).toBe(true);
    expect(isPrivateGroup(2001, 1000, { passwd, group })).toBe(true);
    expect(isPrivateGroup(2002, 1000, { passwd, group })).toBe(true);
  });

  it('is false when another account shares it, as a member or as its primary group', () => {
    expect(isPrivateGroup(2000, 1000, { passwd, group })).toBe(false);
    expect(isPrivateGroup(1000, 1000, { passwd, group })).toBe(false); // carol's primary group too
    expect(isPrivateGroup(2001, 1001, { passwd, group })).toBe(false); // alice is a member
  });

  it('is false for a group or a user the files do not list, or files that cannot be read', () => {
    expect(isPrivateGroup(4242, 1000, { passwd, group })).toBe(false);
    expect(isPrivateGroup(1001, 4242, { passwd, group })).toBe(false);
    expect(isPrivateGroup(1001, 1001, { passwd: null, group })).toBe(false);
    expect(isPrivateGroup(1001, 1001, { passwd, group: null })).toBe(false);
  });
});

describe('othersCanWrite', () => {
  const stat = (mode: number, gid: number) => ({ mode, gid }) as fs.Stats;
  it('world-writable always; group-writable unless private; neither never', () => {
    expect(othersCanWrite(stat(0o40777, 1001), 1001, { passwd, group })).toBe(true);
    expect(othersCanWrite(stat(0o40775, 1001), 1001, { passwd, group })).toBe(false);
    expect(othersCanWrite(stat(0o40775, 2000), 1001, { passwd, group })).toBe(true);
    expect(othersCanWrite(stat(0o40755, 2000), 1001, { passwd, group })).toBe(false);
    expect(othersCanWrite(stat(0o100664, 4242), 1001, { passwd, group })).toBe(true);
  });
});
