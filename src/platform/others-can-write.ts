/**
 * Whether anyone but the user (and root) can write a file or folder, from its stat.
 *
 * World-writable: yes. Group-writable: yes, unless the group is the user's own private group —
 * Debian, Ubuntu and Fedora give every user a group of their own and a umask of 002, so a
 * repository cloned there is 775 all the way down, and refusing that would refuse everyone. A
 * group counts as private only when /etc/group names it with no member but the user and no other
 * account in /etc/passwd has it as its primary group; a group those files do not list (LDAP, NSS)
 * is not known to be private, so it counts as writable by others.
 */
import fs from 'node:fs';

export interface AccountFiles {
  /** The text of /etc/passwd and /etc/group (null when unreadable). */
  passwd: string | null;
  group: string | null;
}

/** Pure: whether `gid` is `uid`'s private group according to `files`. */
export function isPrivateGroup(gid: number, uid: number, files: AccountFiles): boolean {
  if (files.passwd === null || files.group === null) return false;
  const accounts = files.passwd
    .split('\n')
    .map((line) => line.split(':'))
    .filter((fields) => fields.length >= 4 && fields[0] !== '' && !fields[0]!.startsWith('#'));
  const me = accounts.find((fields) => Number(fields[2]) === uid);
  if (!me) return false;
  if (accounts.some((fields) => Number(fields[3]) === gid && Number(fields[2]) !== uid)) return false;
  const entry = files.group
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields.length >= 4 && Number(fields[2]) === gid && fields[2] !== '');
  if (!entry) return false;
  const members = (entry[3] ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  return members.every((name) => name === me[0]);
}

let cached: AccountFiles | undefined;

function accountFiles(): AccountFiles {
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  cached ??= { passwd: read('/etc/passwd'), group: read('/etc/group') };
  return cached;
}

/** Whether someone other than `uid` (and root) may write what `st` describes. The sticky bit is
 * the caller's to weigh: it stops others replacing entries, not adding them. */
export function othersCanWrite(st: fs.Stats, uid: number, files: AccountFiles = accountFiles()): boolean {
  if ((st.mode & 0o002) !== 0) return true;
  if ((st.mode & 0o020) === 0) return false;
  return !isPrivateGroup(st.gid, uid, files);
}
