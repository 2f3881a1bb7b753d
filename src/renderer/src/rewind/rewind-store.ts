import { create } from 'zustand';

/** The message whose "Rewind to here" dialog is open (its run), or null. */
export const useRewind = create<{ runId: string | null }>(() => ({ runId: null }));

export function openRewind(runId: string): void {
  useRewind.setState({ runId });
}

export function closeRewind(): void {
  useRewind.setState({ runId: null });
}
