/**
 * Where the API commands find their credentials, first match wins:
 * `--profile NAME` (or OFFEROPS_PROFILE) names a saved profile; else
 * OFFEROPS_API_KEY (with OFFEROPS_BASE_URL); else the profile `default`.
 * OFFEROPS_BASE_URL overrides a profile's base URL; without either, the
 * document's first server. Profiles are saved by `offerops login` in
 * `$XDG_CONFIG_HOME/offerops/config.json` (default `~/.config/offerops/`),
 * a file of mode 0600 in a directory of mode 0700. A key is never printed.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Credentials } from './api-client';
import { UsageError } from './errors';

export interface Profile {
  base_url: string;
  api_key: string;
}

interface Config {
  profiles: Record<string, Profile>;
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'offerops', 'config.json');
}

function readConfig(file: string): Config {
  if (!existsSync(file)) return { profiles: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Config>;
    return { profiles: parsed.profiles ?? {} };
  } catch (err) {
    throw new UsageError(`${file} is not readable JSON (${(err as Error).message}); fix or remove it, then run offerops login`);
  }
}

export function saveProfile(name: string, profile: Profile, env: NodeJS.ProcessEnv = process.env): string {
  const file = configFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const config = readConfig(file);
  config.profiles[name] = profile;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}

export function credentials(profileName: string | undefined, defaultBaseUrl: string, env: NodeJS.ProcessEnv = process.env): Credentials {
  const named = profileName ?? env.OFFEROPS_PROFILE;
  const envBase = env.OFFEROPS_BASE_URL;
  if (!named && env.OFFEROPS_API_KEY) return { apiKey: env.OFFEROPS_API_KEY, baseUrl: envBase || defaultBaseUrl };
  const file = configFile(env);
  const profile = readConfig(file).profiles[named ?? 'default'];
  if (!profile) {
    throw new UsageError(
      named
        ? `no profile ${named} in ${file}: run offerops login --profile ${named}`
        : 'no credentials: set OFFEROPS_API_KEY (and OFFEROPS_BASE_URL), or run offerops login',
    );
  }
  return { apiKey: profile.api_key, baseUrl: envBase || profile.base_url };
}

/** A line from the terminal without echoing it (the key), or the first line of piped stdin. */
export function readSecret(prompt: string): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    return new Promise((resolve) => {
      let text = '';
      input.setEncoding('utf8');
      input.on('data', (chunk: string) => (text += chunk));
      input.on('end', () => resolve(text.split('\n')[0]!.trim()));
    });
  }
  process.stderr.write(prompt);
  return new Promise((resolve) => {
    let text = '';
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stderr.write('\n');
          resolve(text.trim());
          return;
        }
        if (ch === '\u0003') {
          input.setRawMode(false);
          process.stderr.write('\n');
          process.exit(130);
        }
        if (ch === '\u007f') text = text.slice(0, -1);
        else text += ch;
      }
    };
    input.on('data', onData);
  });
}
