"""The play table's styles (scoped to its root class ``musteach-table-widget``; see :mod:`musteach_widgets.table`).

Stable CSS classes (PlayTable): root ``musteach-table-widget``; action buttons ``musteach-action`` and
``musteach-action-<kind>`` (kinds ``mus``, ``no-hay-mus``, ``discard``, ``paso``, ``envido``,
``reenvido``, ``ordago``, ``quiero``, ``no-quiero``, ``declare-si``, ``declare-no``, ``signal``); the bet
amounts ``musteach-envido-amount`` and ``musteach-raise-amount``, each in one group with its button
(``musteach-bet-group``: ``musteach-envido-group`` "Envido [2] stones", ``musteach-raise-group`` "[2] [2 más]",
so that on a phone no box sits loose between two buttons); the learner's cards ``musteach-mycard``
with a toggle ``musteach-discard-toggle`` under each; the seats ``musteach-seats``; the partner's señas
``musteach-partner-senas``; the seña picker ``musteach-sena-choice``; the status ``musteach-status``;
a friendly message ``musteach-message``; the coach ``musteach-coach``; the count ``musteach-count``; the
log ``musteach-log``; ``musteach-next-hand`` and ``musteach-new-game``; in a replay, the banner
``musteach-replay-banner`` and ``musteach-back-to-game``.
"""

from __future__ import annotations

__all__ = ["TABLE_CSS"]

TABLE_CSS = """
.musteach-table-widget {
  --mt-ink: #1f2a24; --mt-muted: #5f6b64; --mt-felt: #2b7a4b; --mt-paper: #fffdf6; --mt-edge: #d8d2c2;
  color: var(--mt-ink); font-family: "DejaVu Sans", Verdana, Arial, sans-serif;
  border: 1px solid var(--mt-edge); border-top: 6px solid var(--mt-felt); border-radius: 12px;
  background: var(--mt-paper); padding: 10px 16px 14px; margin: 8px 0; max-width: 860px;
  box-shadow: 0 2px 6px rgba(0, 0, 0, .07);
}
.musteach-table-widget .widget-html, .musteach-table-widget .widget-html-content {
  height: auto; line-height: 1.45; white-space: normal; width: 100%;
}
.musteach-table-widget svg { max-width: 100%; height: auto; }
.musteach-table-widget .musteach-table-header .widget-html-content { font-weight: 700; font-size: 1.1em; }
.musteach-table-widget .musteach-table-score .widget-html-content { color: var(--mt-muted); font-size: .92em; }
.musteach-table-widget .musteach-status .widget-html-content {
  background: #e3f2fd; border-left: 5px solid #1565c0; padding: 6px 10px; border-radius: 6px; font-weight: 600;
}
.musteach-table-widget .musteach-status.musteach-your-turn .widget-html-content {
  background: #fff6c8; border-left-color: #f9a825;
}
.musteach-table-widget .musteach-seats-grid {
  display: grid; grid-template-columns: 1fr 1.1fr 1fr; grid-template-rows: auto auto; gap: 6px;
  background: var(--mt-felt); border-radius: 14px; padding: 8px; margin: 6px 0;
}
.musteach-table-widget .musteach-seat {
  background: #1b5a35; color: #fff; border-radius: 10px; padding: 5px 7px; min-height: 86px;
}
.musteach-table-widget .musteach-seat-top { grid-column: 2; grid-row: 1; }
.musteach-table-widget .musteach-seat-left { grid-column: 1; grid-row: 2; }
.musteach-table-widget .musteach-seat-right { grid-column: 3; grid-row: 2; }
.musteach-table-widget .musteach-centre {
  grid-column: 2; grid-row: 2; color: #eaf5ee; text-align: center; font-size: .9em; align-self: center;
}
.musteach-table-widget .musteach-seat-name { font-size: .85em; font-weight: 700; }
.musteach-table-widget .musteach-seat .musteach-dot {
  display: inline-block; width: .8em; height: .8em; border-radius: 50%; margin-right: .3em; vertical-align: -1px;
}
.musteach-table-widget .musteach-seat-cards { display: flex; gap: 3px; margin: 3px 0; line-height: 0; }
.musteach-table-widget .musteach-said {
  display: inline-block; background: #fff; color: #1f2a24; border-radius: 9px; padding: 1px 8px;
  font-size: .85em; font-weight: 600;
}
.musteach-table-widget .musteach-turn-mark { color: #ffe45c; font-weight: 700; }
.musteach-table-widget .musteach-my-hand { align-items: flex-end; gap: 8px; flex-wrap: wrap; margin: 4px 0; }
.musteach-table-widget .musteach-my-hand .musteach-card-col { align-items: center; }
.musteach-table-widget .musteach-mycard .widget-html-content { line-height: 0; }
.musteach-table-widget .musteach-mycard { width: auto; }
.musteach-table-widget .musteach-discard-toggle { width: 86px; }
.musteach-table-widget .musteach-my-info .widget-html-content { color: var(--mt-muted); font-size: .92em; }
.musteach-table-widget .musteach-actions, .musteach-table-widget .musteach-sena-row,
.musteach-table-widget .musteach-nav { flex-wrap: wrap; gap: 6px; align-items: center; margin: 4px 0; }
.musteach-table-widget .musteach-action { width: auto; min-width: 82px; border-radius: 8px; font-weight: 600; }
.musteach-table-widget .musteach-amount { width: 64px; }
.musteach-table-widget .musteach-amount input { width: 52px; }
.musteach-table-widget .musteach-bet-group {
  flex-wrap: nowrap; align-items: center; gap: 4px; width: auto; padding: 2px 8px 2px 2px;
  border: 1px solid var(--mt-edge); border-radius: 10px; background: #fff;
}
.musteach-table-widget .musteach-bet-group .musteach-action { margin: 0; }
.musteach-table-widget .musteach-bet-group .musteach-amount { margin: 0; }
.musteach-table-widget .musteach-amount-unit .widget-html-content { width: auto; color: var(--mt-muted); }
.musteach-table-widget .musteach-action { flex: 0 0 auto; max-width: 100%; }
.musteach-table-widget .musteach-sena-row { flex-wrap: wrap; }
.musteach-table-widget .musteach-sena-choice { width: auto; max-width: 100%; flex: 1 1 240px; min-width: 0; }
.musteach-table-widget .musteach-sena-choice .widget-radio-box { min-width: 0; flex: 1 1 auto; }
.musteach-table-widget .musteach-sena-choice .widget-radio-box label {
  display: flex; align-items: center; gap: 6px; white-space: normal; overflow-wrap: anywhere;
  line-height: 1.3; height: auto; margin: 3px 0;
}
.musteach-table-widget .musteach-sena-choice .widget-radio-box input { float: none; flex: 0 0 auto; order: -1; margin: 0; }
.musteach-table-widget .widget-button:focus-visible, .musteach-table-widget .widget-toggle-button:focus-visible,
.musteach-table-widget select:focus-visible, .musteach-table-widget input:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px;
}
.musteach-table-widget .musteach-partner-senas .musteach-sena-line {
  display: flex; align-items: center; gap: 8px; margin: 2px 0; font-size: .95em;
}
.musteach-table-widget .musteach-message .musteach-error {
  background: #fff3e0; border-left: 5px solid #e65100; padding: 6px 10px; border-radius: 6px;
}
.musteach-table-widget .musteach-coach .musteach-coach-text {
  background: #e8f5e9; border-left: 5px solid #2e7d32; padding: 6px 10px; border-radius: 6px; margin: 4px 0;
}
.musteach-table-widget .musteach-coach .musteach-coach-text.musteach-differs { background: #fff8e1; border-left-color: #f9a825; }
.musteach-table-widget .musteach-count .musteach-count-box {
  border: 1px solid var(--mt-edge); border-radius: 10px; padding: 6px 12px; background: #fffef9; margin: 4px 0;
}
.musteach-table-widget .musteach-count ol { margin: 4px 0 4px 1.3em; padding: 0; }
.musteach-table-widget .musteach-count li { margin: 2px 0; }
.musteach-table-widget .musteach-count .musteach-game-over {
  background: #fffde7; border-left: 5px solid #f9a825; padding: 6px 10px; border-radius: 6px; font-weight: 700;
}
.musteach-table-widget .musteach-log-box {
  display: flex; flex-direction: column-reverse; max-height: 190px; overflow-y: auto; border: 1px solid var(--mt-edge);
  border-radius: 8px; padding: 4px 10px; background: #fbfaf5; font-size: .88em; color: #34413a;
}
.musteach-table-widget .musteach-log-box p { margin: 1px 0; }
.musteach-table-widget details summary { cursor: pointer; color: #0b5c8f; font-weight: 600; }
.musteach-table-widget .musteach-replay-banner {
  background: #ede7f6; border-left: 5px solid #5e35b1; padding: 6px 10px; border-radius: 6px; font-weight: 600;
}
"""
