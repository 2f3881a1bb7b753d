// The persistent sandbox warning. Mount <SandboxBanner /> once, at the top of the app.
export { SandboxBanner, sandboxBannerText } from './SandboxBanner';
import './sandbox.css';
