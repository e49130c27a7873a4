import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { AccountRow } from "../../db/account_row.ts";
import { CsrfField } from "./form_kit.tsx";

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1b1b1b;background:#fff}
header,main{max-width:48rem;margin:0 auto;padding:0.75rem 1rem}
header,main.wide{max-width:80rem}
header{display:flex;flex-wrap:wrap;gap:0.5rem 1rem;align-items:center;border-bottom:1px solid #ddd}
header nav{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;align-items:center}
header nav.account{margin-left:auto}
.site-menu{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;align-items:center;flex:1 1 auto}
button.menu-button{margin:0;padding:0.2rem 0.7rem}
.site-menu nav.account{margin-left:auto}
.brand{font-weight:700;text-decoration:none}
pre{background:#f5f5f5;padding:0.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.notice{border:2px solid #1b7a1b;padding:0.5rem 1rem;border-radius:4px}
.lead{font-size:1.1rem}
button.copy{margin:0 0 0.5rem;padding:0.1rem 0.6rem;background:#fff;color:#0645ad}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
a{color:#0645ad}
label{display:block;font-weight:600;margin-top:1rem}
input,select,button{font:inherit;padding:0.4rem 0.6rem;max-width:100%}
input:not([type=hidden]),select{display:block;width:100%;border:1px solid #767676;border-radius:4px}
button{margin-top:1rem;border:1px solid #0645ad;background:#0645ad;color:#fff;border-radius:4px}
form.inline{display:inline}
button.danger{background:#fff;color:#b00020;border-color:#b00020}
li>form.inline{margin-left:0.5rem}
form.inline button{margin:0;padding:0.1rem 0.5rem;background:#fff;color:#0645ad}
.hint{color:#555;font-size:0.9rem;margin:0.25rem 0 0}
.error{color:#b00020;margin:0.25rem 0 0}
.alert{border:2px solid #b00020;padding:0.5rem 1rem;border-radius:4px}
table{border-collapse:collapse;width:100%}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
th,td{text-align:left;padding:0.3rem 0.5rem 0.3rem 0;border-bottom:1px solid #eee}
/* connect and usage pages (src/connect/, src/usage/) */
td.path{overflow-wrap:anywhere}
td code{overflow-wrap:anywhere}
.per-day{font-size:0.9rem}
.per-day th[scope=row]{white-space:nowrap}
.client{border-top:1px solid #ddd;margin-top:1.5rem}
.tabs .client{border-top:0;margin-top:0}
.endpoint-choice{border:0;padding:0;margin:0.5rem 0}.endpoint-choice label{margin-right:1rem}
.periods a[aria-current]{font-weight:700;color:inherit;text-decoration:none}
.totals,.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:0.25rem 1.5rem}
.legend{margin:0.25rem 0;font-size:0.9rem}
.legend svg{vertical-align:middle;margin-right:0.3rem}
figure.chart{margin:0.5rem 0}
figure.chart svg[role=img]{display:block;width:100%;height:auto}
/* the chart shrinks with a phone's column: its axis text grows to stay readable (src/usage/chart.tsx) */
@media (max-width:599px){figure.chart svg[role=img] text{font-size:15px}}
/* a team's members (src/teams/): each form one line that wraps; on a phone, a card each */
.members form{display:flex;flex-wrap:wrap;gap:0.25rem 0.5rem;align-items:center}
.members select{width:auto}
.members form button,.members form label{margin:0}
@media (max-width:599px){
main table.members,.members tbody,.members tr,.members td{display:block}
.members thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.members tr{padding:0.5rem 0;border-bottom:1px solid #eee}
.members td{border:0;padding:0.15rem 0}
.members td.name{font-weight:600}
.members td.email{overflow-wrap:anywhere}
.members td.role:not(:has(form))::before{content:"Role: "}
.members td.remove:empty{display:none}
}
@media (max-width:599px) and (prefers-color-scheme:dark){
.members tr{border-color:#3a3d42}
}
.notes blockquote{margin:0.25rem 0 0.75rem 1rem;padding-left:0.5rem;border-left:3px solid #ddd}
/* wiki pages (src/spaces/) */
.wiki-bar{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;align-items:center;padding-bottom:0.5rem;border-bottom:1px solid #eee}
.wiki-bar .crumbs{margin:0;overflow-wrap:anywhere}
.wiki-search{display:flex;gap:0.5rem;align-items:center;flex:1 1 14rem}
.wiki-search input,.wiki-search button{margin:0}
.tools{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;margin:0.5rem 0}
.version-switcher{align-items:center}
.version-switcher select,.version-switcher button{display:inline-block;width:auto;margin:0}
.badge{margin-left:0.5rem;padding:0 0.4rem;border:1px solid #555;border-radius:4px;font-size:0.8rem}
.prose{overflow-wrap:break-word}
.prose img{max-width:100%}
.prose table{display:block;overflow-x:auto}
.prose code{background:#f5f5f5;padding:0 0.2rem}
.prose pre code{padding:0}
.prose blockquote{margin:0.5rem 0;padding-left:0.75rem;border-left:3px solid #ddd;color:#444}
a.missing{color:#b00020;text-decoration-style:dashed}
ul.tree{list-style:none;padding-left:1rem}
section>ul.tree{padding-left:0}
summary{cursor:pointer}
.folder-page{margin:0 0 0 1rem}
textarea{display:block;width:100%;font:inherit;padding:0.4rem 0.6rem;border:1px solid #767676;border-radius:4px}
textarea.code{font:0.95rem/1.45 ui-monospace,Menlo,Consolas,monospace}
textarea[readonly]{background:#f5f5f5}
.actions{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:baseline}
button.secondary{background:#fff;color:#0645ad}
a.button{display:inline-block;padding:0.4rem 0.8rem;border:1px solid #0645ad;border-radius:4px;text-decoration:none}
label.check{font-weight:400}
input[type=checkbox],input[type=radio]{display:inline;width:auto;margin:0 0.4rem 0 0}
fieldset{border:1px solid #ddd;border-radius:4px;margin-top:1rem}
legend{font-weight:600}
.scroll{overflow-x:auto}
.diff ins{text-decoration:none;background:#e6ffec}
.diff del{text-decoration:none;background:#ffebe9}
.diff .skip{color:#555;font-style:italic}
.results li{margin-bottom:0.75rem}
.wiki-search{position:relative}
#wiki-suggest{position:absolute;top:100%;left:0;right:0;z-index:10;margin:0.25rem 0 0;padding:0.25rem 0;list-style:none;background:#fff;border:1px solid #767676;border-radius:4px;box-shadow:0 4px 12px #0002}
#wiki-suggest a{display:block;padding:0.3rem 0.6rem;text-decoration:none}
#wiki-suggest a:hover,#wiki-suggest a:focus{background:#eef3ff}
#wiki-suggest .hint{display:block}
/* search as you type: a section's snippet, two lines at most (src/spaces/suggest_sections.ts) */
#wiki-suggest .snippet{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden;font-size:0.85rem;color:#444}
#link-suggest{list-style:none;margin:0;padding:0.25rem 0;border:1px solid #767676;border-radius:4px;max-width:24rem;background:Canvas;z-index:20;max-height:16rem;overflow-y:auto}
.editor-mode{display:flex;gap:1rem;border:0;padding:0;margin:1rem 0 0}
.editor-mode legend{font-weight:600;float:left;margin-right:0.5rem}
.editor-mode label{display:inline;font-weight:400;margin:0}
.editing:has(#preview[data-visual]){grid-template-columns:minmax(0,1fr)}
#preview[data-visual]{display:none}
#link-suggest li{padding:0.2rem 0.6rem;cursor:pointer}
#link-suggest li[aria-selected=true]{background:#eef3ff}
/* the editor: toolbar, shortcuts, the preview beside the text on a wide screen (src/spaces/editor_page.tsx) */
.md-toolbar{display:flex;flex-wrap:wrap;gap:0.25rem;align-items:center;margin:1rem 0 0.25rem}
.md-toolbar button{margin:0;padding:0.05rem 0.45rem;font-size:0.85rem}
.editor input[type=file][hidden]{display:none}
.md-toolbar details{margin-left:auto;font-size:0.9rem;position:relative}
.md-toolbar details[open] dl{position:absolute;right:0;z-index:10;width:22rem;max-width:90vw;padding:0.5rem 0.75rem;background:Canvas;border:1px solid #767676;border-radius:4px;display:grid;grid-template-columns:auto 1fr;gap:0.25rem 0.75rem}
.md-toolbar dd{margin:0}
#preview-body{min-height:4rem}
@media (min-width:1200px){
.wiki-content:has(.editing){grid-column:main-start/-1;max-width:none}
.editing{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 1.5rem;align-items:start}
.editing>#preview{position:sticky;top:0.5rem;max-height:calc(100vh - 1rem);overflow:auto;border-left:1px solid #8884;padding-left:1.5rem}
}
.coverage{padding:0.4rem 0.75rem;border-left:4px solid #1b7a1b}
.coverage.partial{border-color:#b26a00}
.coverage.unsupported{border-color:#b00020}
.citations blockquote{margin:0.25rem 0 0.75rem;padding-left:0.5rem;border-left:3px solid #ddd}
.citations blockquote>:first-child{margin-top:0}.citations blockquote>:last-child{margin-bottom:0}
.results p{margin:0.1rem 0}
.results p.snippet{white-space:pre-line}
mark{background:#fff3b0}
.page-meta{margin-top:2rem}
.backlinks{border-top:1px solid #eee;margin-top:1rem}
progress{width:100%}
tr.failed td:nth-child(2){font-weight:700;color:#b00020}
/* a wiki's frame: title, table of contents, content and the sidebar of pages (src/spaces/) */
.wiki-grid{display:grid;gap:0 2rem;grid-template-columns:minmax(0,1fr);grid-template-areas:"head" "toc" "main" "side"}
.page-head{grid-area:head}
.toc-area{grid-area:toc}
.wiki-content{grid-area:main;min-width:0;max-width:52rem}
.sidebar{grid-area:side;border-top:1px solid #eee;margin-top:1.5rem;padding-top:0.5rem}
.sidebar ul.tree{padding-left:0.9rem;margin:0.25rem 0}
.sidebar>details>ul.tree{padding-left:0}
.sidebar li{margin:0.15rem 0}
.sidebar a[aria-current=page]{font-weight:700;color:inherit;text-decoration:none}
.sidebar>details>summary,.toc>details>summary{font-weight:600}
.toc ul{list-style:none;padding-left:0;margin:0.25rem 0}
.toc li.sub{padding-left:1rem}
.toc{font-size:0.95rem}
.prev-next{display:flex;justify-content:space-between;gap:1rem;margin-top:2rem;border-top:1px solid #eee;padding-top:0.75rem}
.prev-next a{display:flex;flex-direction:column}
.prev-next a.next{text-align:right;margin-left:auto}
kbd{border:1px solid #999;border-radius:3px;padding:0 0.3rem;font:0.85rem ui-monospace,monospace;white-space:nowrap}
@media (min-width:900px){
.wiki-grid{grid-template-columns:15rem minmax(0,1fr);grid-template-rows:auto auto 1fr;grid-template-areas:"side head" "side toc" "side main"}
.wiki-grid.no-side{grid-template-columns:minmax(0,1fr);grid-template-areas:"head" "toc" "main"}
.sidebar{border-top:0;margin-top:0;padding:0 1rem 0 0;border-right:1px solid #eee}
.sidebar>details{position:sticky;top:0.5rem;max-height:calc(100vh - 1rem);overflow:auto}
}
@media (min-width:1200px){
.wiki-grid{grid-template-columns:15rem minmax(0,1fr) 14rem;grid-template-rows:auto 1fr;grid-template-areas:"side head toc" "side main toc"}
.wiki-grid.no-side{grid-template-columns:minmax(0,1fr) 14rem;grid-template-areas:"head toc" "main toc"}
.toc>details{position:sticky;top:0.5rem}
}
/* on a phone, the header and the wiki's tools are one scrolling line each */
@media (max-width:899px){
/* the header's links wrap (with script, they sit behind the Menu button: menu.js) */
.wiki-bar .tools{flex-wrap:nowrap;overflow-x:auto;white-space:nowrap}
.has-menu .site-menu{order:3}
.has-menu .site-menu:not(.open){display:none}
.has-menu header>nav.account{margin-left:auto}
.has-menu button.menu-button{margin-left:auto}
.has-menu header>nav.account+button.menu-button{margin-left:0}
.has-menu .site-menu.open{flex-basis:100%;flex-direction:column;align-items:stretch;padding:0.5rem 0}
.has-menu .site-menu.open nav{flex-direction:column;align-items:flex-start;gap:0.5rem;margin:0}
.has-menu .site-menu.open nav.account{border-top:1px solid #ddd;padding-top:0.5rem}
.site-menu .sidebar{border-top:1px solid #ddd;margin-top:0.5rem}
/* a shadow on the side where the line goes on, so a cut-off link reads as "scroll for more" */
.wiki-bar .tools{background:linear-gradient(to right,#fff 30%,#fff0) left/2rem 100% no-repeat local,linear-gradient(to left,#fff 30%,#fff0) right/2rem 100% no-repeat local,linear-gradient(to right,#0003,#0000) left/0.75rem 100% no-repeat scroll,linear-gradient(to left,#0003,#0000) right/0.75rem 100% no-repeat scroll}
header{gap:0.5rem}
main table{display:block;overflow-x:auto}
h1{font-size:1.6rem;margin:0.5rem 0}
}
/* on a phone, the visual editor keeps its width for text, and a space's people read as lines */
@media (max-width:599px){
main .milkdown .ProseMirror{padding:0.75rem 0.75rem 0.75rem 2.25rem}
table.people thead{position:absolute;left:-9999px}
table.people caption{display:block;text-align:left;font-weight:600}
table.people tr{display:block;border-bottom:1px solid #8888;padding:0.5rem 0}
table.people td{display:inline;border:0;padding:0}
table.people td:not(:first-child):not(.remove)::before{content:" · "}
table.people td.remove{display:block}
}
@media (max-width:899px) and (prefers-color-scheme:dark){
.wiki-bar .tools{background:linear-gradient(to right,#16181c 30%,#16181c00) left/2rem 100% no-repeat local,linear-gradient(to left,#16181c 30%,#16181c00) right/2rem 100% no-repeat local,linear-gradient(to right,#000c,#0000) left/0.75rem 100% no-repeat scroll,linear-gradient(to left,#000c,#0000) right/0.75rem 100% no-repeat scroll}
}
.callout{margin:1rem 0;padding:0.5rem 0.9rem;border-left:4px solid #0645ad;background:#eef3fb;border-radius:4px}
.callout-title{font-weight:600;margin:0.25rem 0}
.callout-body>:first-child{margin-top:0}.callout-body>:last-child{margin-bottom:0}
.callout-warning,.callout-caution{border-left-color:#8a6100;background:#fdf5e1}
.callout-danger{border-left-color:#b3261e;background:#fbeceb}
.callout-tip,.callout-success{border-left-color:#1b7a1b;background:#ebf6ec}
details.callout>summary{cursor:pointer}
.tabs{margin:1rem 0;border:1px solid #8888;border-radius:4px;padding:0.25rem 0.75rem}
.tab-label{font-weight:600;margin:0.5rem 0 0.25rem}
.tabs [role=tablist]{display:flex;flex-wrap:wrap;gap:0.25rem;border-bottom:1px solid #8888;margin:0 -0.75rem 0.5rem;padding:0 0.5rem}
.tabs [role=tab]{font:inherit;background:none;border:0;border-bottom:3px solid transparent;padding:0.4rem 0.6rem;margin:0;cursor:pointer;color:inherit}
.tabs [role=tab][aria-selected=true]{border-bottom-color:#0645ad;font-weight:600}
.tabs.enhanced .tab-label{display:none}
ol.steps{padding-left:1.5rem}.step-title{font-weight:600;margin:0.5rem 0 0.25rem}
.site-head{display:flex;flex-wrap:wrap;align-items:center;gap:0.5rem 1.5rem;max-width:80rem;margin:0 auto;padding:0.5rem 1rem;border-bottom:1px solid #ddd}
.site-title{display:flex;align-items:center;gap:0.5rem;font-weight:700;font-size:1.15rem;text-decoration:none}
.site-head nav{display:flex;flex-wrap:wrap;gap:0.25rem 1rem}
.helpful fieldset{border:1px solid #8888;border-radius:4px;margin-top:2rem}
.helpful textarea{width:100%}
ol.order .order-item{display:flex;gap:0.5rem;align-items:center;margin:0.2rem 0}
/* code blocks: highlighted on the server (highlight.js classes), a Copy button (copy.js) */
.code-block{position:relative}
.code-block pre{padding-right:4.5rem}
/* code wraps at spaces, breaking a long word only where it must */
.prose pre{word-break:normal;overflow-wrap:anywhere}
button.copy-code{position:absolute;top:0.35rem;right:0.35rem;margin:0;padding:0.05rem 0.5rem;font-size:0.8rem;background:#fff;color:#0645ad}
.hljs-keyword,.hljs-selector-tag,.hljs-meta .hljs-keyword,.hljs-doctag,.hljs-template-tag{color:#b3261e}
.hljs-string,.hljs-regexp,.hljs-meta .hljs-string,.hljs-addition{color:#0a3069}
.hljs-comment,.hljs-quote{color:#57606a;font-style:italic}
.hljs-title,.hljs-title.function_,.hljs-section{color:#6639ba}
.hljs-number,.hljs-literal,.hljs-symbol,.hljs-bullet,.hljs-variable,.hljs-template-variable{color:#0550ae}
.hljs-attr,.hljs-attribute,.hljs-built_in,.hljs-type,.hljs-params,.hljs-selector-class,.hljs-selector-id,.hljs-name{color:#8a4600}
.hljs-deletion{color:#82071e}
.hljs-meta{color:#57606a}
.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:700}
/* the search palette (palette.js): a dialog over the page, its results a listbox */
dialog.palette{width:min(40rem,calc(100vw - 1rem));max-height:min(32rem,calc(100vh - 2rem));margin:4rem auto auto;padding:0.75rem;border:1px solid #767676;border-radius:6px;background:Canvas;color:CanvasText}
dialog.palette::backdrop{background:#0006}
.palette input{margin:0}
.palette ul{list-style:none;margin:0.5rem 0 0;padding:0;max-height:22rem;overflow-y:auto}
.palette [role=option]{display:block;padding:0.4rem 0.6rem;border-radius:4px;cursor:pointer}
.palette [role=option][aria-selected=true]{background:#dbe7ff;outline:2px solid #0645ad}
.palette .palette-title{display:block;font-weight:600}
.palette .snippet{display:block;font-size:0.85rem;color:#444;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.palette-keys{margin:0.5rem 0 0}
.skip-link{position:absolute;left:-9999px;top:0.5rem;z-index:10;background:#fff;color:#0645ad;padding:0.4rem 0.8rem;border:2px solid #0645ad;border-radius:4px}
.skip-link:focus{left:1rem}
main:focus{outline:none}
@media (prefers-color-scheme:dark){
:root{color-scheme:dark}
body{color:#e4e4e4;background:#16181c}
a,button.copy,form.inline button,button.secondary,a.button{color:#8ab4f8}
header,.wiki-bar,th,td,.backlinks,.prev-next,.sidebar,.client,fieldset{border-color:#3a3d42}
pre,.prose code,textarea[readonly]{background:#24272c}
.hint,.diff .skip{color:#a8a8a8}
button{background:#3b6fd6;border-color:#3b6fd6;color:#fff}
form.inline button,button.secondary,button.copy{background:transparent;border-color:#8ab4f8}
button.danger{background:transparent;color:#ff8a80;border-color:#ff8a80}
input:not([type=hidden]),select,textarea{background:#1e2025;color:inherit;border-color:#8a8a8a}
mark{background:#6b5d00;color:inherit}
a.missing,.error,tr.failed td:nth-child(2){color:#ff8a80}
.alert{border-color:#ff8a80}
.diff ins{background:#1d3b27}
.diff del{background:#4a2226}
.prose blockquote{color:#c0c0c0;border-color:#3a3d42}
#wiki-suggest{background:#1e2025;border-color:#555}
#wiki-suggest a:hover,#wiki-suggest a:focus{background:#2b3340}
figure.chart svg[role=img] text{fill:#a8a8a8}
figure.chart svg[role=img] line{stroke:#3a3d42}
figure.chart [stroke="#0645ad"]{stroke:#8ab4f8}
figure.chart [fill="#0645ad"]{fill:#8ab4f8}
figure.chart [stroke="#1b7a1b"]{stroke:#6fcf7f}
figure.chart [fill="#1b7a1b"]{fill:#6fcf7f}
#wiki-suggest .snippet{color:#c0c0c0}
button.copy-code{background:#24272c;color:#8ab4f8;border-color:#8ab4f8}
.hljs-keyword,.hljs-selector-tag,.hljs-meta .hljs-keyword,.hljs-doctag,.hljs-template-tag{color:#ff8a80}
.hljs-string,.hljs-regexp,.hljs-meta .hljs-string,.hljs-addition{color:#a5d6ff}
.hljs-comment,.hljs-quote,.hljs-meta{color:#a8b1bb}
.hljs-title,.hljs-title.function_,.hljs-section{color:#d2a8ff}
.hljs-number,.hljs-literal,.hljs-symbol,.hljs-bullet,.hljs-variable,.hljs-template-variable{color:#79c0ff}
.hljs-attr,.hljs-attribute,.hljs-built_in,.hljs-type,.hljs-params,.hljs-selector-class,.hljs-selector-id,.hljs-name{color:#ffb366}
.hljs-deletion{color:#ffdcd7}
.palette [role=option][aria-selected=true]{background:#2b3340;outline-color:#8ab4f8}
.palette .snippet{color:#c0c0c0}
.has-menu .site-menu.open nav.account,.site-menu .sidebar{border-color:#3a3d42}
.callout{background:#1e2227;border-left-color:#8ab4f8}
.callout-warning,.callout-caution{background:#2b2615;border-left-color:#e0b341}
.callout-danger{background:#2d1b1b;border-left-color:#f28b82}
.callout-tip,.callout-success{background:#17271b;border-left-color:#6fcf7f}
.tabs [role=tab][aria-selected=true]{border-bottom-color:#8ab4f8}
}
`;

/** What every page needs: its title, who is signed in, and the token its forms carry. */
export type PageContext = { account: AccountRow | null; csrfToken: string };

/**
 * The page frame of the web app: a header with the sign-in state (and a sign-out button),
 * then `main`. One column, readable on a phone.
 */
export function Layout(
  props: PageContext & {
    title: string;
    /** A wide page (a wiki's, with its sidebar) rather than one reading column. */
    wide?: boolean;
    /** False when the page renders its own `h1` (the wiki frame does, beside its sidebar). */
    heading?: boolean;
    children?: Child;
  },
) {
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{props.title} · Wiki</title>
          <meta name="color-scheme" content="light dark" />
          <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
          <style dangerouslySetInnerHTML={{ __html: CSS }} />
        </head>
        <body>
          <a href="#main" class="skip-link">Skip to content</a>
          <header>
            <a href="/" class="brand">Wiki</a>
            <div id="site-menu" class="site-menu">
              <nav aria-label="Site">
                <a href="/#wikis">Public wikis</a>
                <a href="/connect">Connect</a>
                <a href="/w/docs">Guide</a>
              </nav>
              {props.account && <AccountNav account={props.account} csrfToken={props.csrfToken} />}
            </div>
            {/* Signed out, "Sign in" and "Sign up" stay in sight on a phone, beside the menu. */}
            {!props.account && (
              <nav aria-label="Account" class="account">
                <a href="/signin">Sign in</a>
                <a href="/signup">Sign up</a>
              </nav>
            )}
            <button
              type="button"
              class="menu-button secondary"
              aria-expanded="false"
              aria-controls="site-menu"
              hidden
            >
              Menu
            </button>
          </header>
          <main id="main" tabindex={-1} class={props.wide ? "wide" : undefined}>
            {props.heading !== false && <h1>{props.title}</h1>}
            {props.children}
          </main>
          <script src="/assets/menu.js" defer></script>
          <script type="module" src="/assets/palette.js"></script>
        </body>
      </html>
    </>
  );
}

/** The signed-in visitor's links and sign-out button, in the header's menu. */
function AccountNav(props: { account: AccountRow; csrfToken: string }) {
  return (
    <nav aria-label="Account" class="account">
      <a href="/account">Dashboard</a>
      <a href="/account/tokens">Tokens</a>
      <span>
        Signed in as <a href="/account/settings">{props.account.name || props.account.email}</a>
      </span>
      <form class="inline" method="post" action="/signout">
        <CsrfField token={props.csrfToken} />
        <button type="submit">Sign out</button>
      </form>
    </nav>
  );
}
