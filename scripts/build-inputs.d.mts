/** Where the hash of the inputs of the last finished build is kept, relative to the repository. */
export declare const BUILD_STAMP: string;
/** The hash of the build's inputs under `root` as they are now. */
export declare function buildInputsHash(root: string): string;
/** Why `root` needs a build before it can start, or null when out/ was built from the files as they are now. */
export declare function staleBuildReason(root: string): string | null;
/** Records that out/ was built from the files as they are now. */
export declare function writeBuildStamp(root: string): void;
