/* The Meta-Harness search page: reads the embedded JSON (#mh-data) and builds the notices, the
   frontier scatter, the best-so-far line, the candidates table and the held-out table. Plain
   browser JavaScript with the inlined Chart.js; nothing is fetched. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('mh-data').textContent);
  var app = document.getElementById('app');
  var frontier = new Set(data.frontier);

  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) node.appendChild(arguments[i]);
    return node;
  }
  var pct = function (x) {
    return x === null || x === undefined ? '—' : (100 * x).toFixed(1) + '%';
  };
  var num = function (x) {
    return x === null || x === undefined ? '—' : Math.round(x).toLocaleString('en-US');
  };
  var signed = function (x) {
    return (x >= 0 ? '+' : '') + (100 * x).toFixed(1) + ' pt';
  };
  function table(id, headers, rows) {
    var head = el('tr');
    headers.forEach(function (h) {
      head.appendChild(el('th', { text: h }));
    });
    var body = el('tbody');
    rows.forEach(function (r) {
      var tr = el('tr', r.attrs || {});
      r.cells.forEach(function (c) {
        tr.appendChild(typeof c === 'object' ? el('td', { class: c.cls, text: c.text }) : el('td', { text: c }));
      });
      body.appendChild(tr);
    });
    return el('div', { class: 'scroll' }, el('table', { id: id }, el('thead', null, head), body));
  }
  function card(title, id) {
    var section = el('section', { class: 'card', id: id }, el('h2', { text: title }));
    app.appendChild(section);
    return section;
  }
  var pending = [];
  function chart(section, title, id, config) {
    var canvas = el('canvas', { id: id, role: 'img', 'aria-label': title });
    section.appendChild(el('div', { class: 'chart' }, el('h4', { text: title }), el('div', { class: 'box' }, canvas)));
    config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false }, config.options);
    pending.push(function () {
      new Chart(canvas, config);
    });
  }

  var n = data.notices;
  document.getElementById('summary').textContent =
    'Model: ' +
    n.model +
    ' · proposer: ' +
    n.proposer +
    ' · search pool ' +
    n.searchTasks +
    ' tasks, test split ' +
    n.testTasks +
    ' tasks · stopped by ' +
    (n.stoppedBy === 'budget' ? 'the budget' : 'the last iteration') +
    ' · spent ' +
    num(n.spent.tokens) +
    ' tokens' +
    (n.spent.usd > 0 ? ', $' + n.spent.usd.toFixed(4) : '');
  var notices = el('div', { id: 'notices' });
  if (n.proposerSimulated)
    notices.appendChild(
      el('p', {
        class: 'privileged',
        id: 'proposer-simulated',
        text: 'Proposer simulated: the candidates were written by the seeded sim proposer, not by a model.',
      }),
    );
  if (n.privilegedNotice)
    notices.appendChild(el('p', { class: 'privileged', id: 'privileged', text: n.privilegedNotice }));
  app.appendChild(notices);

  // The frontier: Pass@final against mean tokens, one point per evaluated candidate.
  var scored = data.rows.filter(function (r) {
    return r.passAtFinal !== null && r.meanTokens !== null;
  });
  var point = function (r) {
    return { x: r.meanTokens, y: 100 * r.passAtFinal, id: r.id };
  };
  var plots = card('Frontier and evolution (search pool)', 'plots');
  var charts = el('div', { class: 'charts' });
  plots.appendChild(charts);
  chart(charts, 'Pass@final ↑ vs mean tokens per episode ↓', 'frontier-chart', {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: 'frontier',
          data: scored.filter((r) => frontier.has(r.id)).map(point),
          backgroundColor: '#c62828',
          pointRadius: 6,
        },
        {
          label: 'dominated',
          data: scored.filter((r) => !frontier.has(r.id)).map(point),
          backgroundColor: '#8a94a6',
          pointRadius: 4,
        },
      ],
    },
    options: {
      scales: {
        x: { title: { display: true, text: 'mean tokens per episode' } },
        y: { min: 0, max: 100, title: { display: true, text: 'Pass@final (%)' } },
      },
      plugins: {
        tooltip: {
          callbacks: {
            label: function (c) {
              return c.raw.id + ': ' + c.raw.y.toFixed(1) + '%, ' + Math.round(c.raw.x) + ' tokens';
            },
          },
        },
      },
    },
  });
  chart(charts, 'Best Pass@final over iterations', 'evolution-chart', {
    type: 'line',
    data: {
      labels: data.iterations.map(function (i) {
        return String(i.iteration);
      }),
      datasets: [
        {
          label: 'best so far',
          data: data.iterations.map((i) => (i.bestSoFar === null ? null : 100 * i.bestSoFar)),
          borderColor: '#3056d3',
          stepped: true,
        },
        {
          label: 'best this iteration',
          data: data.iterations.map((i) => (i.best === null ? null : 100 * i.best)),
          borderColor: '#9a6700',
          showLine: false,
        },
      ],
    },
    options: { scales: { x: { title: { display: true, text: 'iteration (0: seeds)' } }, y: { min: 0, max: 100 } } },
  });

  var changed = card('What each candidate changed, and why', 'candidates');
  changed.appendChild(
    table(
      'candidates-table',
      [
        'candidate',
        'iteration',
        'parent',
        'mechanism',
        'hypothesis',
        'outcome',
        'Pass@final',
        'mean tokens',
        'Δ vs best',
        'frontier',
      ],
      data.rows.map(function (r) {
        return {
          attrs: { 'data-id': r.id, class: frontier.has(r.id) ? 'frontier' : '' },
          cells: [
            r.id,
            String(r.iteration),
            r.parent || '—',
            { cls: 'text', text: r.mechanism },
            { cls: 'text', text: r.hypothesis },
            { cls: 'text', text: r.outcome },
            pct(r.passAtFinal),
            num(r.meanTokens),
            r.deltaVsBest === null ? '—' : signed(r.deltaVsBest),
            frontier.has(r.id) ? '✓' : '',
          ],
        };
      }),
    ),
  );

  var held = card('Held-out test split', 'heldout');
  if (!data.heldOut)
    held.appendChild(
      el('p', { class: 'notes', text: 'Not evaluated (no frontier, no evaluated baseline seed, or no test tasks).' }),
    );
  else {
    held.appendChild(
      el('p', {
        class: 'notes',
        text:
          'Against the baseline ' +
          data.baseline +
          ', paired by task and trial: fixes / breaks, exact sign test over tasks, 95% cluster-bootstrap interval of Δ Pass@final.',
      }),
    );
    held.appendChild(
      table(
        'heldout-table',
        [
          'harness',
          'Pass@final',
          'mean tokens',
          'Δ vs baseline',
          '95% interval',
          'fixes',
          'breaks',
          'sign test p (better / worse)',
        ],
        data.heldOut.map(function (h) {
          var c = h.comparison;
          return {
            attrs: { 'data-id': h.id },
            cells: [
              h.id + (h.id === data.baseline ? ' (baseline)' : ''),
              pct(h.passAtFinal),
              num(h.meanTokens),
              c && c.delta !== null ? signed(c.delta) : '—',
              c && c.interval
                ? '[' + (100 * c.interval.low).toFixed(1) + ', ' + (100 * c.interval.high).toFixed(1) + '] pt'
                : '—',
              c ? String(c.fixes.length) : '—',
              c ? String(c.breaks.length) : '—',
              c ? c.sign.pBetter.toFixed(3) + ' / ' + c.sign.pWorse.toFixed(3) : '—',
            ],
          };
        }),
      ),
    );
  }
  if (data.leaderboard) {
    var use = card('In a leaderboard', 'leaderboard');
    use.appendChild(
      el('p', { class: 'notes', text: 'The best harness runs in any suite as the strategy harness:<path>:' }),
    );
    use.appendChild(el('code', { class: 'command', text: data.leaderboard }));
  }

  pending.forEach(function (draw) {
    draw();
  });
  document.body.dataset.ready = 'true';
})();
