// Types of scripts/build-changed.mjs (plain JavaScript: it runs before anything is built).
export interface BuildPart {
  name: string;
  /** The npm script that builds it. */
  script: string;
  /** Files and folders (under the root) whose text it is built from. */
  inputs: string[];
  /** A file the build writes: missing, the part is built. */
  output: string;
  /** Also the files its sources import from outside its inputs. */
  followImports?: boolean;
}
export const PARTS: BuildPart[];
export function inputHash(root: string, part: BuildPart): string;
export function recordBuilt(root: string, part: BuildPart, hash?: string): void;
export function isStale(root: string, part: BuildPart, hash?: string): boolean;
