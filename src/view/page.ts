/**
 * The solution viewer page: one self-contained HTML file (no network: styles and script inline, cards
 * drawn with CSS and Unicode suit symbols) that steps through frames computed in Node (frames.ts).
 * The page's script only draws a frame and handles the buttons, the arrow keys, the slider and the
 * reveal toggle.
 *
 * What the page shows is also in stable data attributes, for tests and scripts:
 * - `[data-column="N"]` (N: spidersolve's column, from 1; laid out and labelled in the page's numbering,
 *   `data-label`): `data-facedown-count`, `data-faceup` (face-up cards bottom first, space-separated,
 *   as `KH QC 10S`, spidersolve's suits); each card is a `.card` with `data-card` (face-down ones hold
 *   their card only while revealed);
 * - `[data-stock]`: `data-stock-deals` (deals left), `data-stock-cards` (cards left);
 * - `[data-removed]`: `data-removed-suits` (letters, space-separated), `data-removed-count`;
 * - `[data-score="classic"]`, `[data-score="reveal"]`, `[data-score="moves"]`: `data-value`;
 * - `[data-step]` (the frame shown, 0 = start) with `data-step-count`, `data-move` (notation);
 * - `[data-status]`: `won` or `not-won` for the frame shown; `[data-verdict]` the page's verdict.
 */
import { escapeHtml, jsonForScript } from './html.js';
import type { ViewFrame } from './frames.js';

/** What the page says about the deal as a whole. */
export type Verdict = 'won' | 'lost' | 'undecided' | 'line' | 'position';

/** Everything the page needs. */
export interface ViewerInput {
  /** Heading: the deal code or the label the user typed. */
  readonly title: string;
  /** `Spider, 2 suits`. */
  readonly variantLabel: string;
  /** Suits to complete to win (8 Spider, 4 Spiderette, R5). */
  readonly completeSuits: number;
  /**
   * `won` (a winning line), `lost` / `undecided` (the solver's answer: frames is then the start
   * alone), `line` (a line that does not end in a win), `position` (no line given).
   */
  readonly verdict: Verdict;
  /** One sentence under the heading: where the line comes from, or what lost/undecided means here. */
  readonly note: string;
  /** The frames, start first (frames.ts). */
  readonly frames: readonly ViewFrame[];
  /** Program name and version, printed at the foot. */
  readonly generator: string;
  /**
   * The number shown for each column (index: spidersolve's column order), and the columns laid out in
   * that order: PySolFC's numbering for a `pysol:` deal (numbering.ts). Default 1..n.
   */
  readonly columnLabels?: readonly number[];
  /** Show spades as clubs (PySolFC's 1- and 2-suit games use clubs where spidersolve uses spades). */
  readonly spadesAsClubs?: boolean;
  /** A sentence on the column numbering, when it is not spidersolve's own (or a PySolFC deal's). */
  readonly columnsNote?: string | null;
  /**
   * Whether the first frame is a start position (a deal as dealt; the default) or a position read
   * from a file in mid-game: the first step then reads "The position as given." instead of "The deal
   * as dealt.".
   */
  readonly startIsDeal?: boolean;
}

/** `1 move`, `2 moves`. */
export function moveCount(n: number): string {
  return `${n} move${n === 1 ? '' : 's'}`;
}

const CSS = `
body{--gap:clamp(2px,0.9vw,8px);--cw:min(78px,calc((min(100vw,1100px) - 20px - (var(--n) - 1) * var(--gap)) / var(--n)));
--ch:calc(var(--cw) * 1.4);--down:calc(var(--cw) * 0.2);--up:calc(var(--cw) * 0.46);--felt:#0f5d3a;--ink:#1c1c1c;--red:#c8102e}
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;background:#083d26;color:#f3f3ef}
main{max-width:1100px;margin:0 auto;padding:10px 10px 130px}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 14px}
h1{font-size:clamp(18px,4.5vw,26px);margin:0;min-width:0;overflow-wrap:anywhere}
.variant{color:#bfe3cd;font-size:15px}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:600;font-size:14px;background:#30475e}
.badge.won{background:#f4c542;color:#2b2100}.badge.lost{background:#b3261e}.badge.undecided{background:#6b5b95}
.note{margin:6px 0 10px;color:#d9eadf;font-size:14px;line-height:1.4;overflow-wrap:anywhere}
.top{display:flex;justify-content:space-between;align-items:flex-end;gap:10px;margin-bottom:10px}
.pile{display:flex;align-items:flex-end;gap:8px}
.pile .label{font-size:12px;color:#cfe8d8;line-height:1.2}
.slots{display:flex;gap:calc(var(--gap) * 0.8)}
.slot,.stockcard{width:calc(var(--cw) * 0.72);height:calc(var(--cw) * 1.0);border-radius:6px}
.slot{border:1.5px dashed rgba(255,255,255,.35);display:flex;align-items:center;justify-content:center;font-size:calc(var(--cw) * 0.42);color:var(--ink)}
.slot.done{border:1px solid #999;background:#fffdf6;box-shadow:0 1px 2px rgba(0,0,0,.4)}
.slot.done.red{color:var(--red)}
.stack{position:relative;height:calc(var(--cw) * 1.0);width:calc(var(--cw) * 0.72 + 20px)}
.nextdeal{margin:-4px 0 8px;text-align:right;font-size:12px;color:#cfe8d8}.nextdeal:empty{display:none}
.stockcard{position:absolute;bottom:0;border:1px solid #0b2140;box-shadow:0 1px 2px rgba(0,0,0,.4)}
.back{background:repeating-linear-gradient(45deg,#1e4e8c 0 4px,#2a63ad 4px 8px);border:1px solid #0b2140}
.board{display:grid;grid-template-columns:repeat(var(--n),var(--cw));gap:var(--gap);justify-content:center;background:radial-gradient(ellipse at top,#17814f,var(--felt));padding:10px 6px 14px;border-radius:12px;box-shadow:inset 0 0 30px rgba(0,0,0,.35)}
.col{position:relative;min-height:var(--ch)}
.empty{position:absolute;top:0;width:var(--cw);height:var(--ch);border:1.5px dashed rgba(255,255,255,.35);border-radius:calc(var(--cw) * 0.09)}
.card{position:absolute;left:0;width:var(--cw);height:var(--ch);border-radius:calc(var(--cw) * 0.09);box-shadow:0 1px 2px rgba(0,0,0,.45)}
.card.face{background:#fffdf6;border:1px solid #9a9a9a;color:var(--ink)}
.card.face.red{color:var(--red)}
.card .corner{position:absolute;top:calc(var(--cw) * 0.04);left:calc(var(--cw) * 0.07);font-weight:700;font-size:calc(var(--cw) * 0.3);line-height:1;letter-spacing:-0.04em;white-space:nowrap}
.card .pip{position:absolute;bottom:calc(var(--cw) * 0.1);right:calc(var(--cw) * 0.1);font-size:calc(var(--cw) * 0.62);line-height:1}
.card.hidden-face{background:#dfe7f3;border:1px dashed #2a63ad}
.card.hidden-face .corner{opacity:.75}
.card.landed{box-shadow:0 0 0 2px #f4c542,0 1px 3px rgba(0,0,0,.5)}
.card.turned{box-shadow:0 0 0 3px #5fd4ff,0 1px 3px rgba(0,0,0,.5)}
.colnum{text-align:center;font-size:11px;color:#bfe3cd;margin-bottom:3px}
.step{background:rgba(0,0,0,.25);border-radius:10px;padding:8px 12px;margin:0 0 10px;min-height:3.2em;font-size:15px;line-height:1.4}
.step .mv{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-weight:700;background:#f4c542;color:#2b2100;padding:0 6px;border-radius:4px;margin-right:6px}
.step .ev{color:#9fe0ff}
.step .winmsg{color:#f4c542;font-weight:700}
.stats{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:14px;margin:0 0 10px;color:#e6f2ea}
.stats b{color:#fff;font-variant-numeric:tabular-nums}
.controls{position:fixed;left:0;right:0;bottom:0;z-index:10;background:#051e13;border-top:1px solid #2d6b4a;box-shadow:0 -4px 12px rgba(0,0,0,.35);padding:8px 10px calc(8px + env(safe-area-inset-bottom))}
.controls .inner{max-width:1100px;margin:0 auto;display:flex;flex-wrap:wrap;align-items:center;gap:8px}
.controls button{font:inherit;font-size:16px;min-width:44px;min-height:40px;border-radius:8px;border:1px solid #4a8f6a;background:#1b5e3d;color:#fff;cursor:pointer}
.controls button:disabled{opacity:.4;cursor:default}
.controls input[type=range]{flex:1 1 200px;min-width:140px;accent-color:#f4c542;height:32px}
.controls label{display:flex;align-items:center;gap:6px;font-size:14px;white-space:nowrap}
.controls .pos{font-variant-numeric:tabular-nums;font-size:14px;min-width:6.5em;text-align:center}
.help{font-size:12px;color:#a9cdb8;margin-top:10px}
footer{font-size:12px;color:#86b39a;margin-top:16px}
@media (max-width:600px){.pile{gap:4px}.pile .label{font-size:11px}.slot,.stockcard,.stack{height:calc(var(--cw) * 0.9)}.slot,.stockcard{width:calc(var(--cw) * 0.62)}.stack{width:calc(var(--cw) * 0.62 + 20px)}.slots{gap:2px}.controls .inner{gap:6px}.controls input[type=range]{order:-1;flex-basis:100%}.note{font-size:13px}.step{font-size:14px}}
`;

const SCRIPT = `
(function(){
var data=JSON.parse(document.getElementById('view-data').textContent);
var F=data.frames,last=F.length-1,k=0,reveal=false;
var SUIT={S:'\\u2660',H:'\\u2665',D:'\\u2666',C:'\\u2663'};
function $(id){return document.getElementById(id)}
var LAB=data.columnLabels,CLUBS=data.spadesAsClubs;
function sym(x){return SUIT[CLUBS&&x==='S'?'C':x]}
function label(c){return c.slice(0,-1)+sym(c.slice(-1))}
function red(c){var s=c.slice(-1);return s==='H'||s==='D'}
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e}
function face(c,cls){var e=el('div','card face'+(red(c)?' red':'')+(cls?' '+cls:''));e.setAttribute('data-card',c);
e.appendChild(el('span','corner',label(c)));e.appendChild(el('span','pip',sym(c.slice(-1))));return e}
var ORDER=LAB.map(function(_,i){return i}).sort(function(a,b){return LAB[a]-LAB[b]});
function board(f){var b=$('board');b.textContent='';
ORDER.forEach(function(i){var col=f.columns[i],n=i+1,w=el('div','colwrap');w.appendChild(el('div','colnum',String(LAB[i])));
var c=el('div','col');c.setAttribute('data-column',String(n));c.setAttribute('data-label',String(LAB[i]));c.setAttribute('data-facedown-count',String(col.down.length));
c.setAttribute('data-faceup',col.up.join(' '));
var landed=0;f.landed.forEach(function(l){if(l.column===n)landed=l.count});
var turned=f.turnedUp.some(function(t){return t.column===n});
var y=[],d=col.down.length,u=col.up.length,ds=reveal?'var(--up)':'var(--down)';
if(d+u===0)c.appendChild(el('div','empty'));
col.down.forEach(function(card,j){var e;if(reveal){e=face(card,'hidden-face')}else{e=el('div','card back')}
e.setAttribute('data-facedown','');e.style.top='calc('+ds+' * '+j+')';c.appendChild(e)});
col.up.forEach(function(card,j){var cls='';if(j>=u-landed)cls='landed';if(turned&&j===0)cls='turned';
var e=face(card,cls);e.style.top='calc('+ds+' * '+d+' + var(--up) * '+j+')';c.appendChild(e)});
var ups=Math.max(u-1,0);c.style.height='calc(var(--ch) + '+ds+' * '+d+' + var(--up) * '+ups+')';
w.appendChild(c);b.appendChild(w)})}
function piles(f){var s=$('stock');var deals=f.stock.length,cards=0;f.stock.forEach(function(d){cards+=d.length});
s.setAttribute('data-stock-deals',String(deals));s.setAttribute('data-stock-cards',String(cards));
var st=$('stack');st.textContent='';st.style.width='calc(var(--cw) * 0.72 + '+Math.max(deals-1,0)*5+'px)';
for(var i=0;i<deals;i++){var e=el('div','stockcard back');e.style.left=(i*5)+'px';st.appendChild(e)}
if(deals===0){var z=el('div','slot');z.style.position='absolute';z.style.bottom='0';st.appendChild(z)}
$('stock-label').textContent=deals===0?'empty':deals+' deal'+(deals===1?'':'s')+' left';s.title=cards+' cards';
var sc=$('stock-cards');sc.textContent='';if(reveal&&deals>0){var nd=f.stock[0];sc.textContent='next deal: '+ORDER.filter(function(i){return i<nd.length}).map(function(i){return label(nd[i])}).join(' ')}
var r=$('removed');r.setAttribute('data-removed-suits',f.removed.join(' '));r.setAttribute('data-removed-count',String(f.removed.length));
var sl=$('slots');sl.textContent='';for(var j=0;j<data.completeSuits;j++){var x=f.removed[j];
var e2=el('div','slot'+(x?' done'+(red('K'+x)?' red':''):''),x?sym(x):'');sl.appendChild(e2)}
$('removed-label').textContent=f.removed.length+' of '+data.completeSuits+' suits'}
function stats(f){function set(name,v){var e=document.querySelector('[data-score="'+name+'"]');e.setAttribute('data-value',String(v));e.textContent=String(v)}
set('moves',f.step);set('classic',f.classic);set('reveal',f.reveal);set('flips',f.flips)}
function stepText(f){var p=$('step');p.setAttribute('data-step',String(f.step));p.setAttribute('data-step-count',String(last));
p.setAttribute('data-move',f.move||'');p.textContent='';
if(f.move===null){p.appendChild(el('span','',data.start+(last>0?' Press \\u2192 or Next to play '+(last===1?'the only move.':'the first of '+last+' moves.'):'')))}
else{p.appendChild(el('span','',('Move '+f.step+' of '+last+': ')));p.appendChild(el('span','mv',f.move));p.appendChild(el('span','',f.words+'.'));
f.completed.forEach(function(s){p.appendChild(el('span','ev',' Completes a suit of '+sym(s)+', removed.'))});
f.turnedUp.forEach(function(t){p.appendChild(el('span','ev',' Turns up '+label(t.card)+' in column '+LAB[t.column-1]+'.'))})}
if(f.won)p.appendChild(el('span','winmsg',' Won: every suit completed.'));
var st=$('status');st.setAttribute('data-status',f.won?'won':'not-won');st.textContent=f.won?'won':(f.step===last&&last>0?'not won':'')}
function show(i){k=Math.max(0,Math.min(last,i));var f=F[k];board(f);piles(f);stats(f);stepText(f);
$('slider').value=String(k);$('pos').textContent=k+' / '+last;
$('prev').disabled=k===0;$('first').disabled=k===0;$('next').disabled=k===last;$('last').disabled=k===last}
$('next').onclick=function(){show(k+1)};$('prev').onclick=function(){show(k-1)};
$('first').onclick=function(){show(0)};$('last').onclick=function(){show(last)};
var sl=$('slider');sl.max=String(last);sl.disabled=last===0;sl.addEventListener('input',function(){show(Number(sl.value))});
$('reveal').addEventListener('change',function(e){reveal=e.target.checked;show(k)});
document.addEventListener('keydown',function(e){if(e.target&&e.target.type==='range')return;if(e.altKey||e.ctrlKey||e.metaKey)return;
if(e.key==='ArrowRight'){show(k+1);e.preventDefault()}else if(e.key==='ArrowLeft'){show(k-1);e.preventDefault()}
else if(e.key==='Home'){show(0);e.preventDefault()}else if(e.key==='End'){show(last);e.preventDefault()}});
var bar=document.querySelector('.controls'),main=document.querySelector('main');
function room(){main.style.paddingBottom=(bar.offsetHeight+24)+'px'}
room();window.addEventListener('resize',room);if(window.ResizeObserver)new ResizeObserver(room).observe(bar);
show(0);document.body.setAttribute('data-ready','');
})();
`;

/**
 * The viewer page as one HTML string (UTF-8). Every text from outside (title, note, cards, moves) is
 * escaped: the heading and note with escapeHtml, the frames as JSON made safe for a script element
 * (jsonForScript) and drawn with textContent.
 */
export function viewerPage(input: ViewerInput): string {
  const n = input.frames[0]?.columns.length ?? 10;
  const last = input.frames.length - 1;
  const badge: Record<Verdict, [string, string]> = {
    won: ['won', `winning line, ${moveCount(last)}`],
    lost: ['lost', 'lost (proven)'],
    undecided: ['undecided', 'undecided'],
    line: ['line', `line of ${moveCount(last)}`],
    position: ['line', 'position'],
  };
  const [cls, text] = badge[input.verdict];
  const labels = input.columnLabels ?? Array.from({ length: n }, (_, i) => i + 1);
  const start = input.startIsDeal === false ? 'The position as given.' : 'The deal as dealt.';
  const data = { completeSuits: input.completeSuits, columnLabels: labels, spadesAsClubs: !!input.spadesAsClubs, start, frames: input.frames };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${input.title} — spidersolve viewer`)}</title>
<style>${CSS}</style>
</head>
<body style="--n:${n}">
<main>
<header><h1>${escapeHtml(input.title)}</h1><span class="variant">${escapeHtml(input.variantLabel)}</span>
<span class="badge ${cls}" data-verdict="${escapeHtml(input.verdict)}">${escapeHtml(text)}</span></header>
<p class="note">${escapeHtml(input.note)}${input.columnsNote ? `<br>${escapeHtml(input.columnsNote[0]!.toUpperCase() + input.columnsNote.slice(1))}.` : ''}</p>
<div class="top">
<div class="pile" id="removed" data-removed><div class="slots" id="slots"></div><div class="label">completed<br><span id="removed-label"></span></div></div>
<div class="pile" id="stock" data-stock><div class="label" style="text-align:right">stock<br><span id="stock-label"></span></div><div class="stack" id="stack"></div></div>
</div>
<p class="nextdeal" id="stock-cards"></p>
<p class="step" id="step" data-step aria-live="polite"></p>
<div class="stats"><span>moves <b data-score="moves"></b></span><span>classic score <b data-score="classic"></b></span><span>reveal score <b data-score="reveal"></b></span><span>cards turned up <b data-score="flips"></b></span><span id="status" data-status></span></div>
<div class="board" id="board"></div>
<p class="help">Keys: \u2192 next move, \u2190 previous, Home start, End last. Highlighted: <span style="color:#f4c542">cards just laid down</span>, <span style="color:#5fd4ff">the card just turned up</span>. Classic score (R16): 500 \u2212 1 a move + 100 a completed suit; reveal score (R17): 5 a card turned up + 100 a completed suit.</p>
<footer>Made by ${escapeHtml(input.generator)}. Every position was computed by its rules engine; this page needs no network.</footer>
</main>
<div class="controls"><div class="inner">
<button id="first" type="button" aria-label="start">|\u25c0</button><button id="prev" type="button" aria-label="previous move">\u25c0</button>
<span class="pos" id="pos"></span>
<button id="next" type="button" aria-label="next move">\u25b6</button><button id="last" type="button" aria-label="last move">\u25b6|</button>
<input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="jump to move">
<label><input id="reveal" type="checkbox"> show face-down cards</label>
</div></div>
<script id="view-data" type="application/json">${jsonForScript(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
