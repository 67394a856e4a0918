// Where ldk finds its server, key and product: the auth file that `ldk login` writes (mode 0600),
// LOOPDESK_URL and LOOPDESK_API_KEY (each overrides the file on its own), and `.loopdesk.json`,
// which ties a folder (and its subfolders) to a product.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './errors.js';

export interface Credentials {
  /** The server's base URL, without /api/v1. */
  url: string;
  key: string;
}

const FOLDER_FILE = '.loopdesk.json';

/** `$XDG_CONFIG_HOME/loopdesk/auth.json`, by default `~/.config/loopdesk/auth.json`. */
export function authFilePath(): string {
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(configHome, 'loopdesk', 'auth.json');
}

function readJsonFile(path: string, expected: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  throw new CliError(`${path} is not ${expected}`);
}

function readAuthFile(): Partial<Credentials> {
  const path = authFilePath();
  if (!existsSync(path)) return {};
  const { url, key } = readJsonFile(path, 'a JSON object { "url", "key" }: run ldk login again');
  return { url: typeof url === 'string' ? url : undefined, key: typeof key === 'string' ? key : undefined };
}

/** Written to a new file of mode 0600, then renamed over the old one: the key is never readable by others. */
export function writeAuthFile(credentials: Credentials): string {
  const path = authFilePath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fresh = `${path}.${process.pid}.tmp`;
  writeFileSync(fresh, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(fresh, path);
  return path;
}

/** A base URL as the client needs it: parsed, without a trailing slash or /api/v1. */
export function normalizeBaseUrl(url: string, origin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`${origin} is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`${origin} is not an http(s) URL: ${url}`);
  return parsed.href.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

const LOGIN_HINT = 'run `ldk login --url URL --key KEY`';

/** The server and key to use: the environment first, then the auth file. */
export function resolveCredentials(): Credentials {
  const file = readAuthFile();
  const url = process.env.LOOPDESK_URL || file.url;
  const key = process.env.LOOPDESK_API_KEY || file.key;
  if (!url) throw new CliError(`no server configured: ${LOGIN_HINT}, or set LOOPDESK_URL`);
  if (!key) throw new CliError(`no API key configured: ${LOGIN_HINT}, or set LOOPDESK_API_KEY`);
  return { url: normalizeBaseUrl(url, process.env.LOOPDESK_URL ? 'LOOPDESK_URL' : authFilePath()), key };
}

interface FolderProduct {
  productId: string;
  file: string;
}

/** The product of the nearest `.loopdesk.json` in `cwd` or its parents. */
export function findFolderProduct(cwd = process.cwd()): FolderProduct | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const file = join(dir, FOLDER_FILE);
    if (existsSync(file)) {
      const { product } = readJsonFile(file, 'a JSON object { "product": "<id>" }: run ldk init again');
      if (typeof product !== 'string') throw new CliError(`${file} has no "product": run ldk init again`);
      return { productId: product, file };
    }
    if (dirname(dir) === dir) return null;
  }
}

export function writeFolderProduct(productId: string, cwd = process.cwd()): string {
  const file = join(cwd, FOLDER_FILE);
  writeFileSync(file, `${JSON.stringify({ product: productId }, null, 2)}\n`);
  return file;
}
