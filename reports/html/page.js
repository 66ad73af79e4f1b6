/*
 * Witness report page: builds the leaderboard, the plots (Chart.js, inlined by the writer) and the
 * trajectory viewer from the JSON embedded in the page. Works from file:// with no network.
 * Every string from the data is hostile (model replies, dataset text): it only ever reaches the
 * page through textContent, never as HTML.
 */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('witness-data').textContent);
  var report = data.report;
  var views = data.views;
  var app = document.getElementById('app');
  var COLORS = [
    '#4e79a7',
    '#f28e2b',
    '#e15759',
    '#76b7b2',
    '#59a14f',
    '#edc948',
    '#b07aa1',
    '#ff9da7',
    '#9c755f',
    '#bab0ac',
  ];
  var DASH = '—';
  /** Charts are drawn once their canvases are in the document. */
  var pending = [];

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'onclick') node.addEventListener('click', value);
      else if (key === 'text') node.textContent = String(value);
      else node.setAttribute(key, value === true ? '' : String(value));
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child))
        child.forEach(function (c) {
          if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
        });
      else node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }
  function pct(v) {
    return v === null || v === undefined ? DASH : (v * 100).toFixed(1);
  }
  function dec(v, d) {
    return v === null || v === undefined ? DASH : v.toFixed(d);
  }
  function int(v) {
    return Math.round(v).toLocaleString('en-US');
  }
  function usd(v) {
    return v === null || v === undefined ? DASH : '$' + (v < 1 ? v.toFixed(4) : v.toFixed(2));
  }
  function withCi(est, fmt) {
    if (!est || est.value === null) return [DASH];
    var parts = [fmt(est.value)];
    if (est.ci) parts.push(el('span', { class: 'ci', text: ' [' + fmt(est.ci.low) + '–' + fmt(est.ci.high) + ']' }));
    return parts;
  }
  function maxK(row) {
    return row.passAtK.length ? row.passAtK[row.passAtK.length - 1] : null;
  }

  // ------------------------------------------------------------------ gate verdict
  function renderGate(gate) {
    var rows = gate.checks.map(function (c) {
      var x = c.comparison;
      var ci = x.interval ? ' [' + signed(x.interval.low) + ', ' + signed(x.interval.high) + ']' : '';
      return el(
        'tr',
        null,
        el('td', {
          class: 'status-' + c.status,
          text: c.status + ' · ' + c.benchmark + (c.strategy ? ' · ' + c.strategy : ''),
        }),
        el('td', { text: pct(x.baselineRate) }),
        el('td', { text: pct(x.candidateRate) }),
        el('td', { text: (x.delta === null ? DASH : signed(x.delta)) + ci }),
        el('td', { text: x.n + ' (' + x.tasks + ')' }),
        el('td', { text: x.fixes.length }),
        el('td', { text: x.breaks.length }),
        el('td', { text: x.sign.pWorse.toPrecision(3) }),
      );
    });
    var details = [];
    gate.checks.forEach(function (c) {
      c.reasons.forEach(function (r) {
        details.push(el('li', { text: (c.strategy ? c.benchmark + ' · ' + c.strategy : c.benchmark) + ': ' + r }));
      });
      if (c.status !== 'pass' && c.comparison.breaks.length) {
        var broke = c.comparison.breaks.slice(0, 20).map(function (i) {
          return i.benchmark + ' · ' + i.strategy + ' · task ' + i.taskId + ' · trial ' + i.trial;
        });
        details.push(
          el('li', {
            text:
              'broke: ' +
              broke.join('; ') +
              (c.comparison.breaks.length > 20 ? '; … ' + (c.comparison.breaks.length - 20) + ' more' : ''),
          }),
        );
      }
    });
    gate.notes.forEach(function (n) {
      details.push(el('li', { text: n }));
    });
    return el(
      'section',
      { class: 'gate ' + gate.status, id: 'gate' },
      el('h2', { class: 'status-' + gate.status, text: gate.title }),
      el('p', {
        class: 'meta',
        text:
          'baseline ' +
          gate.baseline.runId +
          ' (' +
          gate.baseline.path +
          ') · candidate ' +
          gate.candidate.runId +
          ' (' +
          gate.candidate.path +
          ')',
      }),
      el(
        'div',
        { class: 'scroll' },
        el(
          'table',
          null,
          el(
            'thead',
            null,
            el(
              'tr',
              null,
              [
                'check',
                'baseline %',
                'candidate %',
                'Δ points [95% CI]',
                'n (tasks)',
                'fixes',
                'breaks',
                'sign test p',
              ].map(function (h) {
                return el('th', { text: h });
              }),
            ),
          ),
          el('tbody', null, rows),
        ),
      ),
      details.length ? el('ul', { class: 'notes' }, details) : null,
    );
  }
  function signed(v) {
    return (v >= 0 ? '+' : '−') + Math.abs(v * 100).toFixed(1);
  }

  // ------------------------------------------------------------------ one section
  function renderSection(section, index) {
    var card = el('section', { class: 'card', id: 'section-' + index });
    card.appendChild(el('h2', { text: section.title }));
    var first = section.rows[0];
    var hashes = unique(section.rows, function (r) {
      return r.promptHashes;
    });
    var oracles = unique(section.rows, function (r) {
      return r.oracles.map(function (o) {
        return o.name + ' (' + settings(o.settings) + ')';
      });
    });
    card.appendChild(
      el('p', {
        class: 'meta',
        text:
          'prompt ' +
          (hashes.length === 1 ? 'hash ' : 'hashes ') +
          hashes.join(', ') +
          ' · oracle ' +
          oracles.join('; ') +
          ' · turn budget ' +
          section.turns +
          (first.trials > 1 ? ' · ' + first.trials + ' trials' : ''),
      }),
    );
    if (section.privileged)
      card.appendChild(
        el('p', {
          class: 'privileged',
          text:
            section.model === 'sim-steerable'
              ? "Privileged model: 'sim-steerable' (steerable sim) knows the gold program and makes planted mistakes that rules in the prompt and observed errors undo, so its scores measure how well a prompt or harness steers it, not a model."
              : "Privileged model: '" +
                section.model +
                "' knows the gold program, so its scores measure the harness, not a model.",
        }),
      );
    card.appendChild(el('div', { class: 'scroll' }, leaderboard(section)));
    var flaky = section.rows
      .filter(function (r) {
        return r.agreement.flaky.length;
      })
      .map(function (r) {
        return el('li', {
          text:
            r.strategy +
            ' flaky tasks: ' +
            r.agreement.flaky
              .map(function (f) {
                return f.taskId + ' (' + f.c + '/' + f.n + ')';
              })
              .join(', '),
        });
      });
    if (flaky.length) card.appendChild(el('ul', { class: 'notes' }, flaky));
    card.appendChild(charts(section, index));
    card.appendChild(tasks(section, index));
    return card;
  }
  function settings(o) {
    var keys = Object.keys(o);
    if (!keys.length) return 'default settings';
    return keys
      .map(function (k) {
        return k + ': ' + (typeof o[k] === 'string' ? o[k] : JSON.stringify(o[k]));
      })
      .join(', ');
  }
  function unique(rows, pick) {
    var seen = [];
    rows.forEach(function (r) {
      pick(r).forEach(function (v) {
        if (seen.indexOf(v) < 0) seen.push(v);
      });
    });
    return seen;
  }

  // ------------------------------------------------------------------ sortable leaderboard
  /** A leaderboard column of a share with its interval, sorted by the estimate. */
  function percentColumn(header, key) {
    return {
      h: header,
      v: function (r) {
        return r[key].value;
      },
      t: function (r) {
        return withCi(r[key], pct);
      },
    };
  }

  /** A leaderboard column of a plain number shown with `digits` decimals. */
  function decimalColumn(header, key, digits) {
    return {
      h: header,
      v: function (r) {
        return r[key];
      },
      t: function (r) {
        return [dec(r[key], digits)];
      },
    };
  }

  function leaderboard(section) {
    var rows = section.rows;
    var repeats = rows.some(function (r) {
      return r.trials > 1;
    });
    var ves = rows.some(function (r) {
      return r.ves !== null;
    });
    var cols = [
      {
        h: 'strategy',
        v: function (r) {
          return r.strategy;
        },
        t: function (r) {
          return [r.strategy];
        },
      },
      {
        h: 'n',
        v: function (r) {
          return r.n;
        },
        t: function (r) {
          return [String(r.n)];
        },
      },
      percentColumn('Pass@1 %', 'pass1'),
      percentColumn('Pass@final %', 'passFinal'),
      {
        h: 'MRR',
        v: function (r) {
          return r.mrr.value;
        },
        t: function (r) {
          return withCi(r.mrr, function (x) {
            return x.toFixed(3);
          });
        },
      },
      decimalColumn('mean τ', 'meanTimeToSuccess', 2),
      decimalColumn('attempts', 'meanAttempts', 2),
      decimalColumn('stability', 'stability', 3),
      decimalColumn('RER (pooled)', 'rerPooled', 3),
      decimalColumn('RER (task mean)', 'rerTaskMean', 3),
      {
        h: 'hardened %',
        v: function (r) {
          return r.hardened;
        },
        t: function (r) {
          return [pct(r.hardened)];
        },
      },
      percentColumn('robust %', 'robust'),
    ];
    if (repeats) {
      cols.push({
        h: 'pass@k %',
        v: function (r) {
          var p = maxK(r);
          return p ? p.value : null;
        },
        t: function (r) {
          var p = maxK(r);
          return [p ? pct(p.value) + ' (k=' + p.k + ')' : DASH];
        },
      });
      cols.push({
        h: 'agreement',
        v: function (r) {
          return r.agreement.mean;
        },
        t: function (r) {
          return [dec(r.agreement.mean, 3)];
        },
      });
      cols.push({
        h: 'flaky',
        v: function (r) {
          return r.agreement.flaky.length;
        },
        t: function (r) {
          return [r.agreement.flaky.length + '/' + r.agreement.tasks];
        },
      });
    }
    if (ves)
      cols.push({
        h: 'VES',
        v: function (r) {
          return r.ves;
        },
        t: function (r) {
          return [dec(r.ves, 1)];
        },
      });
    cols.push({
      h: 'tokens',
      v: function (r) {
        return r.spend.tokens;
      },
      t: function (r) {
        return [(r.tokens.estimated ? '~' : '') + int(r.spend.tokens)];
      },
    });
    cols.push({
      h: 'cost',
      v: function (r) {
        return r.spend.usd;
      },
      t: function (r) {
        return [usd(r.spend.usd)];
      },
    });

    var table = el('table', { class: 'leaderboard' });
    var headRow = el('tr');
    var body = el('tbody');
    var state = { col: -1, dir: 1 };
    cols.forEach(function (c, i) {
      headRow.appendChild(
        el(
          'th',
          {
            scope: 'col',
            title: 'sort by ' + c.h,
            onclick: function () {
              sortBy(i);
            },
          },
          c.h,
        ),
      );
    });
    table.appendChild(el('thead', null, headRow));
    table.appendChild(body);
    function fill(order) {
      body.textContent = '';
      order.forEach(function (r) {
        body.appendChild(
          el(
            'tr',
            null,
            cols.map(function (c) {
              return el('td', null, c.t(r));
            }),
          ),
        );
      });
    }
    function sortBy(i) {
      state.dir = state.col === i ? -state.dir : i === 0 ? 1 : -1;
      state.col = i;
      var order = rows.slice().sort(function (a, b) {
        var x = cols[i].v(a),
          y = cols[i].v(b);
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : x > y ? 1 : 0) * state.dir;
      });
      Array.prototype.forEach.call(headRow.children, function (th, j) {
        th.setAttribute('aria-sort', j === i ? (state.dir > 0 ? 'ascending' : 'descending') : 'none');
      });
      fill(order);
    }
    fill(rows);
    return table;
  }

  // ------------------------------------------------------------------ plots
  function chartCard(title, config) {
    var canvas = el('canvas', { role: 'img', 'aria-label': title });
    var card = el('div', { class: 'chart' }, el('h4', { text: title }), el('div', { class: 'box' }, canvas));
    config.options = Object.assign(
      {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } },
      },
      config.options || {},
    );
    pending.push(function () {
      new Chart(canvas, config);
    });
    return card;
  }
  function percentAxis(title) {
    return { min: 0, max: 100, title: { display: true, text: title } };
  }

  function charts(section) {
    var rows = section.rows;
    var color = function (i) {
      return COLORS[i % COLORS.length];
    };
    var turns = [];
    for (var t = 1; t <= section.turns; t++) turns.push(String(t));
    var grid = el('div', { class: 'charts' });
    grid.appendChild(
      chartCard('Convergence: solved by turn t (%)', {
        type: 'line',
        data: {
          labels: turns,
          datasets: rows.map(function (r, i) {
            return {
              label: r.strategy,
              data: r.curve.map(function (v) {
                return v === null ? null : v * 100;
              }),
              borderColor: color(i),
              backgroundColor: color(i),
              tension: 0.15,
            };
          }),
        },
        options: { scales: { y: percentAxis('% solved'), x: { title: { display: true, text: 'turn' } } } },
      }),
    );
    grid.appendChild(
      chartCard('Time to success (episodes by first solving turn)', {
        type: 'bar',
        data: {
          labels: turns.concat(['unsolved']),
          datasets: rows.map(function (r, i) {
            return { label: r.strategy, data: r.tau.counts.concat([r.tau.unsolved]), backgroundColor: color(i) };
          }),
        },
        options: {
          scales: {
            y: { beginAtZero: true, title: { display: true, text: 'episodes' } },
            x: { title: { display: true, text: 'τ' } },
          },
        },
      }),
    );
    grid.appendChild(
      chartCard('Fixes vs breaks of hidden cases between turns', {
        type: 'bar',
        data: {
          labels: rows.map(function (r) {
            return r.strategy;
          }),
          datasets: [
            {
              label: 'fixes (fail → pass)',
              data: rows.map(function (r) {
                return r.fixes;
              }),
              backgroundColor: '#59a14f',
            },
            {
              label: 'breaks (pass → fail)',
              data: rows.map(function (r) {
                return r.breaks;
              }),
              backgroundColor: '#e15759',
            },
          ],
        },
        options: { scales: { y: { beginAtZero: true, title: { display: true, text: 'cases' } } } },
      }),
    );
    grid.appendChild(
      chartCard('Hidden vs hardened vs robust success (%)', {
        type: 'bar',
        data: {
          labels: rows.map(function (r) {
            return r.strategy;
          }),
          datasets: [
            {
              label: 'hidden (Pass@final)',
              data: rows.map(function (r) {
                return r.passFinal.value === null ? null : r.passFinal.value * 100;
              }),
              backgroundColor: '#a0cbe8',
            },
            {
              label: 'hardened',
              data: rows.map(function (r) {
                return r.hardened === null ? null : r.hardened * 100;
              }),
              backgroundColor: '#4e79a7',
            },
            {
              label: 'robust',
              data: rows.map(function (r) {
                return r.robust.value === null ? null : r.robust.value * 100;
              }),
              backgroundColor: '#1d3f6e',
            },
          ],
        },
        options: { scales: { y: percentAxis('%') } },
      }),
    );
    if (
      rows.some(function (r) {
        return r.ves !== null;
      })
    ) {
      grid.appendChild(
        chartCard('VES against Pass@1', {
          type: 'scatter',
          data: {
            datasets: rows
              .filter(function (r) {
                return r.ves !== null && r.pass1.value !== null;
              })
              .map(function (r, i) {
                return {
                  label: r.strategy,
                  data: [{ x: r.pass1.value * 100, y: r.ves }],
                  backgroundColor: color(i),
                  pointRadius: 6,
                };
              }),
          },
          options: {
            scales: { x: percentAxis('Pass@1 %'), y: { beginAtZero: true, title: { display: true, text: 'VES' } } },
          },
        }),
      );
    }
    if (
      rows.some(function (r) {
        return r.passAtK.length > 1;
      })
    ) {
      var ks = [];
      rows.forEach(function (r) {
        r.passAtK.forEach(function (p) {
          if (ks.indexOf(p.k) < 0) ks.push(p.k);
        });
      });
      ks.sort(function (a, b) {
        return a - b;
      });
      grid.appendChild(
        chartCard('pass@k over repeated episodes (%)', {
          type: 'line',
          data: {
            labels: ks.map(String),
            datasets: rows.map(function (r, i) {
              return {
                label: r.strategy,
                data: ks.map(function (k) {
                  var p = r.passAtK.filter(function (q) {
                    return q.k === k;
                  })[0];
                  return p ? p.value * 100 : null;
                }),
                borderColor: color(i),
                backgroundColor: color(i),
              };
            }),
          },
          options: { scales: { y: percentAxis('%'), x: { title: { display: true, text: 'k' } } } },
        }),
      );
    }
    var purposes = [];
    rows.forEach(function (r) {
      Object.keys(r.spend.byPurpose).forEach(function (p) {
        if (purposes.indexOf(p) < 0) purposes.push(p);
      });
    });
    grid.appendChild(
      chartCard('Tokens per strategy, by purpose', {
        type: 'bar',
        data: {
          labels: rows.map(function (r) {
            return r.strategy;
          }),
          datasets: purposes.map(function (p, i) {
            return {
              label: p,
              data: rows.map(function (r) {
                var s = r.spend.byPurpose[p];
                return s ? s.prompt + s.completion : 0;
              }),
              backgroundColor: color(i + 3),
            };
          }),
        },
        options: {
          scales: {
            x: { stacked: true },
            y: { stacked: true, beginAtZero: true, title: { display: true, text: 'tokens' } },
          },
        },
      }),
    );
    return grid;
  }

  // ------------------------------------------------------------------ per-task trajectories
  function tasks(section, index) {
    var mine = [];
    views.forEach(function (v, i) {
      if (v.section === index) mine.push(i);
    });
    var strategies = section.rows.map(function (r) {
      return r.strategy;
    });
    var byTask = {};
    var ids = [];
    mine.forEach(function (i) {
      var v = views[i];
      if (!byTask[v.taskId]) {
        byTask[v.taskId] = {};
        ids.push(v.taskId);
      }
      (byTask[v.taskId][v.strategy] = byTask[v.taskId][v.strategy] || []).push(i);
    });
    ids.sort(function (a, b) {
      return a.localeCompare(b, 'en', { numeric: true });
    });
    var body = el('tbody');
    // Large sections build their rows when the list is first opened, so the page opens fast.
    function fill() {
      ids.forEach(function (id) {
        body.appendChild(
          el(
            'tr',
            { 'data-task': id },
            el('td', { text: id }),
            strategies.map(function (s) {
              return el(
                'td',
                { class: 'cell' },
                (byTask[id][s] || []).map(function (i) {
                  return runButton(i);
                }),
              );
            }),
          ),
        );
      });
    }
    var filter = el('input', {
      class: 'filter',
      type: 'search',
      placeholder: 'filter tasks by id',
      'aria-label': 'filter tasks',
    });
    filter.addEventListener('input', function () {
      var q = filter.value.trim().toLowerCase();
      Array.prototype.forEach.call(body.children, function (tr) {
        tr.hidden = q !== '' && tr.getAttribute('data-task').toLowerCase().indexOf(q) < 0;
      });
    });
    var details = el(
      'details',
      { class: 'tasks', open: ids.length <= 200 },
      el('summary', null, el('strong', { text: 'Tasks (' + ids.length + '): open a trajectory to see every turn' })),
      el('p', {
        class: 'meta',
        text: 'Each button is one episode: the turn that solved it (1 = first attempt), ✗ unsolved, M model error, E harness error.',
      }),
      filter,
      el(
        'div',
        { class: 'scroll' },
        el(
          'table',
          null,
          el(
            'thead',
            null,
            el(
              'tr',
              null,
              el('th', { text: 'task' }),
              strategies.map(function (s) {
                return el('th', { text: s });
              }),
            ),
          ),
          body,
        ),
      ),
    );
    if (details.open) fill();
    else
      details.addEventListener('toggle', function once() {
        details.removeEventListener('toggle', once);
        fill();
      });
    return details;
  }

  function runButton(i) {
    var v = views[i];
    var cls = v.status === 'solved' ? (v.tau === 1 ? 'solved1' : 'solved') : v.status;
    var label =
      v.status === 'solved'
        ? String(v.tau)
        : v.status === 'unsolved'
          ? '✗'
          : v.status === 'model-error'
            ? 'M'
            : v.status === 'invalid-data'
              ? 'D'
              : 'E';
    var title =
      'task ' +
      v.taskId +
      ' · ' +
      v.strategy +
      ' · trial ' +
      v.trial +
      ': ' +
      (v.status === 'solved' ? 'solved at turn ' + v.tau : v.status);
    return el(
      'button',
      {
        class: 'run ' + cls,
        title: title,
        'data-view': i,
        onclick: function () {
          openTrajectory(i);
        },
      },
      label,
    );
  }

  var dialog = document.getElementById('trajectory');
  document.getElementById('close').addEventListener('click', function () {
    dialog.close();
  });

  // A lazy page (large runs) has only the views' headers; each task's trajectories are a script in
  // report-data/ that calls witnessReportChunk. <script src> works from file://, fetch() does not.
  var chunks = {};
  window.witnessReportChunk = function (chunk, items) {
    items.forEach(function (item) {
      views[item[0]] = item[1];
    });
    var waiting = chunks[chunk];
    chunks[chunk] = true;
    if (waiting && waiting !== true)
      waiting.forEach(function (done) {
        done();
      });
  };
  function loadChunk(chunk, done, failed) {
    if (chunks[chunk] === true) return done();
    if (chunks[chunk]) return chunks[chunk].push(done);
    chunks[chunk] = [done];
    var script = document.createElement('script');
    script.src = data.lazy + 'c' + chunk + '.js';
    script.onerror = function () {
      delete chunks[chunk];
      failed(script.src);
    };
    document.head.appendChild(script);
  }

  /** Opens one episode: every turn's candidate, verdict, witnesses and feedback. */
  function openTrajectory(i) {
    var head = views[i];
    if (data.lazy && head.chunk !== undefined && chunks[head.chunk] !== true) {
      loadChunk(
        head.chunk,
        function () {
          openTrajectory(i);
        },
        function (src) {
          showTrajectory(
            head,
            'The trajectory could not be loaded from ' + src + ' (keep the report-data folder next to report.html).',
          );
        },
      );
      return;
    }
    showTrajectory(views[i]);
  }

  function showTrajectory(v, problem) {
    document.getElementById('trajectory-title').textContent =
      'task ' + v.taskId + ' · ' + v.strategy + ' · trial ' + v.trial;
    var status = v.status === 'solved' ? 'solved at turn ' + v.tau : v.status;
    document.getElementById('trajectory-meta').textContent =
      v.benchmark +
      ' · ' +
      v.model +
      ' · run ' +
      v.runId +
      ' · ' +
      status +
      (v.hardening ? ' · hardening: ' + v.hardening : '') +
      ' · ' +
      int(v.tokens) +
      ' tokens · cost ' +
      usd(v.usd);
    var body = document.getElementById('trajectory-body');
    body.textContent = '';
    if (problem) body.appendChild(el('p', { class: 'privileged', text: problem }));
    if (v.error) body.appendChild(el('p', { class: 'privileged', text: 'Harness error: ' + v.error }));
    body.appendChild(el('details', null, el('summary', { text: 'Prompt' }), el('pre', { text: v.prompt })));
    v.turns.forEach(function (t) {
      body.appendChild(turnView(t));
    });
    if (!v.turns.length) body.appendChild(el('p', { class: 'meta', text: 'No turns were taken.' }));
    dialog.showModal();
  }

  function turnView(t) {
    var verdict = t.pass
      ? '✓ passed all ' + t.total + ' cases'
      : t.error
        ? '✗ ' + t.error
        : '✗ ' + t.failed + ' of ' + t.total + ' cases fail';
    var article = el(
      'article',
      { class: 'turn ' + (t.pass ? 'pass' : 'fail') },
      el('h4', { text: 'Turn ' + t.index + ' (' + t.phase + '): ' + verdict }),
    );
    if (t.modelError)
      article.appendChild(el('p', { class: 'status-fail', text: 'Model call failed: ' + t.modelError }));
    article.appendChild(el('div', { class: 'label', text: 'Candidate' }));
    article.appendChild(
      el('pre', { class: 'candidate', text: t.candidate === null ? '(no program in the reply)' : t.candidate }),
    );
    if (t.witnesses.length) {
      article.appendChild(el('div', { class: 'label', text: 'Witnesses' }));
      article.appendChild(
        el(
          'ul',
          { class: 'witnesses' },
          t.witnesses
            .map(function (w) {
              return el(
                'li',
                null,
                el('strong', { text: w.label + ': ' }),
                el('code', { text: w.input }),
                w.expected !== undefined ? ' expected ' : '',
                w.expected !== undefined ? el('code', { text: w.expected }) : null,
                w.actual !== undefined ? ', got ' : '',
                w.actual !== undefined ? el('code', { text: w.actual }) : null,
              );
            })
            .concat(t.moreWitnesses ? [el('li', { text: '… ' + t.moreWitnesses + ' more' })] : []),
        ),
      );
    }
    if (t.feedback !== undefined) {
      article.appendChild(el('div', { class: 'label', text: 'Feedback sent to the model' }));
      article.appendChild(el('pre', { class: 'feedback', text: t.feedback }));
    }
    var calls = t.calls
      .map(function (c) {
        return c.purpose + ' ' + int(c.tokens);
      })
      .join(', ');
    article.appendChild(
      el('p', {
        class: 'meta',
        text:
          int(t.tokens) +
          ' tokens · cost ' +
          usd(t.usd) +
          ' · ' +
          t.latencyMs +
          ' ms' +
          (t.cached ? ' · from the response cache' : '') +
          (calls ? ' · auxiliary calls: ' + calls : ''),
      }),
    );
    return article;
  }

  // ------------------------------------------------------------------ the page
  var runs = report.runs.map(function (r) {
    return (
      r.runId + ' (' + r.trajectories + ' episodes, ' + int(r.spend.tokens) + ' tokens, cost ' + usd(r.spend.usd) + ')'
    );
  });
  var ledger = report.ledger;
  var ledgerText = ledger
    ? ' · episodes: ' +
      ledger.planned +
      ' planned, ' +
      ledger.recorded +
      ' recorded' +
      (ledger.lost ? ', ' + ledger.lost + ' lost (a harness error says why)' : '') +
      (ledger.notRun.length ? ', ' + ledger.notRun.length + ' not run (budget spent)' : '')
    : '';
  document.getElementById('runs').textContent =
    (report.runIds.length === 1 ? 'Run ' : 'Runs ') + runs.join('; ') + ledgerText;
  document.getElementById('created').textContent =
    'Generated ' + report.createdAt + (report.sources.length ? ' from ' + report.sources.join(', ') : '');

  if (report.gate) app.appendChild(renderGate(report.gate));
  if (report.notes.length)
    app.appendChild(
      el(
        'section',
        { class: 'card' },
        el('h2', { text: 'Merge notes' }),
        el(
          'ul',
          { class: 'notes' },
          report.notes.map(function (n) {
            return el('li', { text: n });
          }),
        ),
      ),
    );
  report.sections.forEach(function (section, index) {
    app.appendChild(renderSection(section, index));
  });
  if (report.harnessErrors.length) {
    app.appendChild(
      el(
        'section',
        { class: 'card' },
        el('h2', { text: 'Harness errors (' + report.harnessErrors.length + ', excluded from rates)' }),
        el(
          'ul',
          { class: 'notes' },
          report.harnessErrors.map(function (e) {
            return el('li', {
              text:
                e.benchmark +
                '/' +
                e.model +
                '/' +
                e.strategy +
                ' task ' +
                e.taskId +
                ' trial ' +
                e.trial +
                ': ' +
                e.message,
            });
          }),
        ),
      ),
    );
  }
  var invalid = report.invalidData || [];
  if (invalid.length) {
    var episodes = invalid.reduce(function (n, e) {
      return n + e.episodes;
    }, 0);
    app.appendChild(
      el(
        'section',
        { class: 'card' },
        el('h2', {
          text:
            'Invalid data (' +
            invalid.length +
            ' items the dataset makes unposable, ' +
            episodes +
            ' episodes; excluded from rates and n)',
        }),
        el(
          'ul',
          { class: 'notes' },
          invalid.map(function (e) {
            return el('li', {
              text:
                e.benchmark +
                ' · ' +
                e.taskId +
                ': ' +
                e.reason +
                (e.episodes > 1 ? ' (' + e.episodes + ' episodes)' : ''),
            });
          }),
        ),
      ),
    );
  }

  pending.forEach(function (draw) {
    draw();
  });
  document.body.setAttribute('data-ready', 'true');
})();
