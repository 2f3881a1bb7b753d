// The preload bridge (filled in by the desktop-shell work).
export {};
