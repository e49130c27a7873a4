// The host side of the browser test: ext-apps' AppBridge and its postMessage transport, bundled
// for the page that hosts the wiki view (tests/mcp_app_browser_test.ts).
import {
  AppBridge,
  PostMessageTransport,
} from "npm:@modelcontextprotocol/ext-apps@2.0.4/app-bridge";

Object.assign(globalThis, { AppBridge, PostMessageTransport });
