/** The default session name: the folder's name, in the alphabet session names allow. */
import { basename } from 'node:path';

export function sessionFromFolder(folder: string): string {
  const name = basename(folder).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return name === '' ? 'belltower' : name;
}
