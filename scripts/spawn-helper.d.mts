/** Gives `file` mode 0755 (an executable copy replaces a hard-linked file); returns whether the mode changed. */
export declare function makeExecutable(file: string): boolean;
/** Makes every spawn-helper under `nodePtyDir` executable; returns them, with whether each had to change. */
export declare function makeSpawnHelpersExecutable(nodePtyDir: string): Array<{ file: string; changed: boolean }>;
