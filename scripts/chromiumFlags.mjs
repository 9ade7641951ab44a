// The flags Debian's Chromium needs on these machines (see the machine notes): no sandbox and no
// GPU in a container, and nothing that reaches for the network on its own. Shared by the
// end-to-end harness and the webview benchmark, so both drive the same browser.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
