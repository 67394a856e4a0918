// The built widget (web/widget, built by `npm run build:widget` at install into dist/web/widget/):
// widget.js for host pages, and the frame's hashed assets named by Vite's manifest. Read once at
// start, so a missing or broken build stops the server with a clear message instead of failing
// requests later.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/web/widget/ from src/http/widget/ (TypeScript, in the tests) and from dist/http/widget/ (the build) alike. */
export const WIDGET_BUILD_DIR = fileURLToPath(new URL('../../../dist/web/widget/', import.meta.url));
const FRAME_ENTRY = 'src/frame/main.tsx';

export interface WidgetBuild {
  /** Where the frame's assets are (served under /widget/assets/). */
  assetsDir: string;
  loader: { source: Buffer; etag: string };
  /** The frame's script and stylesheets, relative to the build directory (`assets/frame-….js`). */
  frame: { script: string; styles: string[] };
}

export class WidgetBuildError extends Error {}

interface ManifestChunk {
  file: string;
  css?: string[];
}

export function loadWidgetBuild(dir: string = WIDGET_BUILD_DIR): WidgetBuild {
  const missing = (what: string) =>
    new WidgetBuildError(`the widget is not built (${what} is missing): run \`npm run build:widget\` (\`npm install\` runs it)`);
  const loaderPath = join(dir, 'widget.js');
  const manifestPath = join(dir, '.vite', 'manifest.json');
  if (!existsSync(loaderPath)) throw missing(loaderPath);
  if (!existsSync(manifestPath)) throw missing(manifestPath);
  const entry = (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>)[FRAME_ENTRY];
  if (!entry) throw new WidgetBuildError(`${manifestPath} names no ${FRAME_ENTRY}: rebuild with \`npm run build:widget\``);
  for (const file of [entry.file, ...(entry.css ?? [])]) if (!existsSync(join(dir, file))) throw missing(join(dir, file));
  const source = readFileSync(loaderPath);
  return {
    assetsDir: join(dir, 'assets'),
    loader: { source, etag: `"${createHash('sha256').update(source).digest('base64url').slice(0, 22)}"` },
    frame: { script: entry.file, styles: entry.css ?? [] },
  };
}
