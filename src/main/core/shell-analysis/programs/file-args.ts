/** What a program reads and writes by argument (see program-files.ts). */
export interface FileArg {
  value: string;
  /** Index of the argv word it came from (to know whether the shell expands it); -1 for a name the program makes up. */
  index: number;
}

export interface ProgramFiles {
  reads: FileArg[];
  writes: FileArg[];
  /** Targets of links being created (`ln TARGET NAME`): a link into a protected folder is a way to write it. */
  links: FileArg[];
  /** The program also writes files whose names the command does not show (`curl -K cfg`): why, else null. */
  hiddenWrites: string | null;
}

export const NO_FILES: ProgramFiles = { reads: [], writes: [], links: [], hiddenWrites: null };

export function files(partial: Partial<ProgramFiles>): ProgramFiles {
  return { ...NO_FILES, ...partial };
}
