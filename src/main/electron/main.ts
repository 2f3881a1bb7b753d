// Electron main entry: the desktop shell (filled in by the desktop-shell work).
import { app } from 'electron';

app.whenReady().then(() => {
  // placeholder
});
