// Shared helpers for the e2e and web integration tests:
//   startWeb()        runs the built `gatehouse web --port 0` in its own process group -> { url, token, port, origin, proc, stop() }
//   openApiSocket()   opens `/api` like the page does (Origin + token) and correlates frames
//   launchChromium()  Debian's /usr/bin/chromium; chromiumSkipReason() says why e2e must skip when it is absent
//   processChromium() one connection to it for all the files a Vitest worker runs (the chat apps' kept contexts)
//   startChatApp()    model + `gatehouse web` on a trusted temp project + Chromium; openChatPage() opens a watched page
export * from './api-socket';
export * from './browser';
export * from './chat-app';
export * from './start-web';
