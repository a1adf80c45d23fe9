// Types of scripts/check-layers.mjs for the test that breaks each rule.
export interface SourceFile {
  path: string;
  text: string;
}
export function checkLayers(files: SourceFile[]): string[];
export function repositorySources(root: string): SourceFile[];
export function importsOf(text: string): { spec: string; typeOnly: boolean; dynamic: boolean }[];
