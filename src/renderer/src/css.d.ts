// A stylesheet imported for its side effect (`import './chat.css'`): Vite bundles it into the page's CSS. Declared so
// that the type checker knows such imports (TypeScript 6 and later check side-effect imports by default).
declare module '*.css';
