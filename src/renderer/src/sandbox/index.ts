// The persistent sandbox warning. Mount <SandboxBanner /> once, at the top of the app.
export { SandboxBanner, sandboxShort, useSandboxState, sandboxBannerText } from './SandboxBanner';
import './sandbox.css';
