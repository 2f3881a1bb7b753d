/**
 * The app's id: `appId` in build/electron-builder.yml (the macOS bundle id, the Linux package's id) and, on Windows,
 * the AppUserModelId the installer gives the app's shortcuts. The app calls `app.setAppUserModelId` with it, so
 * Windows attributes its notifications (approval toasts) to the installed app; a different id would leave them
 * silent. test/unit/electron/electron-builder-config.test.ts checks that the two agree.
 */
export const APP_ID = 'dev.gatehouse.desktop';

/** The deb's and the rpm's package name: package.json's `name`, which electron-builder gives them (tested). */
export const LINUX_PACKAGE_NAME = 'gatehouse';
