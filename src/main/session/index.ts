export { SessionStore } from './session-store';
export type { NewSession, SessionSummary } from './session-store';
export { TranscriptWriter } from './transcript-writer';
export { readTranscript, rebuildConversation } from './transcript-reader';
export type { LoadedTranscript, TranscriptProblem } from './transcript-reader';
export { TranscriptEntrySchema, SessionIdSchema } from './transcript-entry';
export type { SessionHeader, TranscriptEntry } from './transcript-entry';
