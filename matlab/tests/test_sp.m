% Octave tests of the shortest-path modes of the metaopt MEX gateway (graph-*, sssp, aco), the
% m-file wrappers (metaopt_graph, metaopt_sssp, metaopt_aco) and metaopt.Graph: distances equal
% to a Dijkstra written here on random graphs (every method, the device and the CPU backend,
% several sources), the predecessor tree checked against the arcs on the Helsinki road network,
% graphs from sparse, full, arcs, files and generators, the ant colony, and errors naming the
% argument. Run by `make test-octave` after test_metaopt.m; ends with "N passed, M failed", exit
% status 1 on a failure.
1;

% check(cond, what) and error_of(f): tests/check.m and tests/error_of.m, on the path whatever the
% current folder
addpath(fileparts(mfilename('fullpath')));

function d = dijkstra_ref(A, s)
  % distances from s over the arcs A(i, j) ~= 0 of a sparse matrix (O(n^2), small graphs)
  n = rows(A);
  d = inf(1, n);
  d(s) = 0;
  done = false(1, n);
  for it = 1:n
    dd = d;
    dd(done) = inf;
    [best, u] = min(dd);
    if isinf(best)
      break;
    end
    done(u) = true;
    [~, v, w] = find(A(u, :));
    d(v) = min(d(v), best + w);
  end
end

function ok = tree_ok(A, dist, pred, sources)
  % pred is a shortest-path tree of dist: 0 exactly at the sources and unreachable vertices,
  % else an arc p -> v with dist(p) + A(p, v) == dist(v)
  ok = true;
  for r = 1:numel(sources)
    d = dist(r, :);
    p = pred(r, :);
    none = p == 0;
    ok = ok && isequal(none, isinf(d) | (1:numel(d)) == sources(r));
    v = find(~none);
    w = full(A(sub2ind(size(A), p(v), v)));
    ok = ok && all(abs(d(p(v)) + w - d(v)) <= 1e-9 * max(1, abs(d(v))));
  end
end

global PASSED FAILED
PASSED = 0;
FAILED = 0;
t0 = tic;
here = fileparts(mfilename('fullpath'));
root = fileparts(fileparts(here));
addpath(fileparts(here));  % the MEX function and the wrappers
data_root = getenv('METAOPT_DATA_DIR');
if isempty(data_root)
  data_root = fullfile(root, 'data');
end
live0 = metaopt_mex('live').graph;

% --- random graphs against Dijkstra: every method, device and CPU, several sources ---
rand('seed', 7);
methods = {'frontier', 'bellman-ford', 'near-far'};
for trial = 1:3
  n = 60;
  A = sprand(n, n, 0.06);
  A = A - diag(diag(A));
  A = spfun(@(x) floor(x * 100) + 1, A);
  g = metaopt_graph(A);
  info = metaopt_info(g);
  check(info.n == n && info.m == nnz(A) && strcmp(info.weightType, 'double'), 'graph-create: n, m and the weights of a sparse matrix');
  sources = [1 7 7 n];
  want = zeros(numel(sources), n);
  for r = 1:numel(sources)
    want(r, :) = dijkstra_ref(A, sources(r));
  end
  for k = 1:numel(methods)
    [d, p, in] = metaopt_sssp(g, sources, 'method', methods{k});
    check(isequal(d, want), ['sssp equals Dijkstra: ' methods{k}]);
    check(tree_ok(A, d, p, sources), ['sssp: the predecessors form a tree: ' methods{k}]);
    check(isequal(in.reached, sum(isfinite(want), 2)), ['sssp: reached: ' methods{k}]);
    [dc, pc] = metaopt_sssp(g, sources, struct('method', methods{k}, 'cpu', true));
    check(isequal(dc, want) && isequal(pc, p), ['sssp on the CPU equals the device: ' methods{k}]);
  end
  metaopt_free(g);
end

% --- graphs from full matrices, arcs, generators and files ---
F = [0 4 0 1; 0 0 2 0; 0 0 0 0; 0 1 7 0];
[s, t, w] = find(sparse(F));
gs = {metaopt_graph(F), metaopt_graph(uint32(F)), metaopt_graph(single(F)), metaopt_graph(4, s, t, w), ...
      metaopt_graph(4, s, t, uint64(w)), metaopt_graph(sparse(F))};
types = {'double', 'uint32', 'single', 'double', 'uint64', 'double'};
for k = 1:numel(gs)
  [d, p] = metaopt_sssp(gs{k}, 1, 'cpu', true);
  check(isequal(d, [0 2 4 1]) && isequal(p, [0 4 2 1]), sprintf('graph %d: distances and predecessors', k));
  check(strcmp(metaopt_info(gs{k}).weightType, types{k}) && metaopt_info(gs{k}).m == 5, sprintf('graph %d: weight type %s', k, types{k}));
  metaopt_free(gs{k});
end
gd = metaopt_graph(F);
D = metaopt_mex('graph-data', gd);
check(isequal(full(sparse(D.s, D.t, D.w, 4, 4)), F) && D.m == 5, 'graph-data gives the arcs back');
metaopt_free(gd);
grid = metaopt_graph('grid', 5, 4);
d = metaopt_sssp(grid, 1);
check(metaopt_info(grid).n == 20 && d(20) == 7, 'a 5 x 4 grid: corner to corner in 7 steps');
metaopt_free(grid);
th = metaopt_graph('thesis', 5, 8, 3);
D = metaopt_mex('graph-data', th);
A = sparse(D.s, D.t, D.w, 32, 32);
check(isequal(metaopt_sssp(th, 5), dijkstra_ref(A, 5)), 'the thesis graph equals Dijkstra');
metaopt_free(th);
gr = [tempname() '.gr'];
fid = fopen(gr, 'w');
fprintf(fid, 'c test\np sp 3 3\na 1 2 4\na 2 3 5\na 1 3 11\n');
fclose(fid);
gf = metaopt_graph(gr);
[d, p] = metaopt_sssp(gf, 1);
check(isequal(d, [0 4 9]) && isequal(p, [0 1 2]) && strcmp(metaopt_info(gf).weightType, 'uint32'), 'a DIMACS file');
metaopt_free(gf);
delete(gr);

% --- Helsinki: device against the CPU, and the tree against the arcs ---
hk = metaopt.Graph(fullfile(data_root, 'graphs', 'helsinki.osm.pbf'));
check(hk.N == 6906 && hk.M == 15314, 'Helsinki: 6,906 vertices and 15,314 arcs');
D = hk.data();
A = sparse(D.s, D.t, D.w, hk.N, hk.N);
src = [1 1235 6906];
[d, p, in] = hk.sssp(src);
[dc, pc] = hk.sssp(src, 'cpu', true);
check(all(abs(d(:) - dc(:)) <= 1e-9 * max(1, abs(dc(:))) | (isinf(d(:)) & isinf(dc(:)))), 'Helsinki: the device equals the CPU');
check(tree_ok(A, d, p, src), 'Helsinki: the predecessors form a shortest-path tree');
check(isequal(size(d), [3 6906]) && numel(in.edges) == 3 && ischar(in.backend), 'Helsinki: sizes and info');

% --- the ant colony ---
rand('seed', 3);
A = sprand(40, 40, 0.15);
A = A - diag(diag(A));
A = spfun(@(x) floor(x * 50) + 1, A);
g = metaopt.Graph(A);
dref = dijkstra_ref(A, 1);
[~, tgt] = max(dref .* isfinite(dref));
r = g.aco(1, tgt, 'iterations', 30, 'ants', 32, 'seed', 2);
rc = g.aco(1, tgt, struct('iterations', 30, 'ants', 32, 'seed', 2, 'cpu', true));
check(r.exactLength == dref(tgt) && r.iterations == 30, 'aco: the exact length and the iterations');
check(isequal(r.path, rc.path) && r.length == rc.length && r.successfulAnts == rc.successfulAnts, 'aco: the device equals the CPU');
check(r.path(1) == 1 && r.path(end) == tgt && r.length == sum(full(A(sub2ind(size(A), r.path(1:end-1), r.path(2:end))))), 'aco: the path and its length');
check(r.gap == (r.length - dref(tgt)) / dref(tgt) && r.foundAtIteration >= 1, 'aco: the gap');
% the thesis's method (no local search) with MAX-MIN restarts: the device equals the CPU too
r1 = g.aco(1, tgt, 'iterations', 10, 'ants', 16, 'seed', 3, 'localSearch', false, 'restart', 3);
r2 = g.aco(1, tgt, 'iterations', 10, 'ants', 16, 'seed', 3, 'localSearch', false, 'restart', 3, 'cpu', true);
check(isequal(r1.path, r2.path) && r1.length == r2.length && r1.length >= dref(tgt), 'aco: localSearch false, restart');
% checkpoints: a run continued from its file ends as the uninterrupted one
ck = [tempname() '.state'];
opts = {'ants', 16, 'seed', 3, 'localSearch', false, 'restart', 3, 'cpu', true};
rw = g.aco(1, tgt, 'iterations', 30, opts{:});
rp = g.aco(1, tgt, 'iterations', 12, 'checkpoint', ck, 'checkpointEvery', 0.001, opts{:});
rr = g.aco(1, tgt, 'iterations', 30, 'resume', ck, opts{:});
check(rp.iterations == 12 && isequal(rr.path, rw.path) && isequal(rr.pheromonePath, rw.pheromonePath) ...
      && rr.successfulAnts == rw.successfulAnts && rr.foundAtIteration == rw.foundAtIteration, ...
      'aco: a resumed run ends as the uninterrupted one');
[id, msg] = error_of(@() g.aco(1, tgt, 'iterations', 30, 'resume', ck, 'ants', 16, 'seed', 4, 'cpu', true));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'option seed was 3')), 'aco: a state of another seed is refused');
check(strcmp(error_of(@() g.aco(1, tgt, 'resume', [ck '.none'], opts{:})), 'metaopt:badArgument'), 'aco: a missing state file');
delete(ck);
unreach = find(isinf(dref), 1);
if ~isempty(unreach)
  ru = g.aco(1, unreach, 'cpu', true);
  check(isempty(ru.path) && isinf(ru.exactLength) && ru.iterations == 0, 'aco: an unreachable target');
end

% --- errors name the argument ---
[id, msg] = error_of(@() metaopt_graph(3, [1 2], [2 5], [1 1]));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 't(2)')), 'graph-edges: a vertex out of range');
[id, msg] = error_of(@() metaopt_graph(sparse([0 -1; 0 0])));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'edges')), 'graph-create: a negative weight (the library names it)');
[id, msg] = error_of(@() metaopt_graph([0 NaN; 0 0]));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'matrix')), 'graph-create: NaN');
check(strcmp(error_of(@() metaopt_graph(zeros(2, 3))), 'metaopt:badArgument'), 'graph-create: not square');
check(strcmp(error_of(@() metaopt_graph(fullfile(data_root, 'graphs', 'none.gr'))), 'metaopt:io'), 'a missing graph file');
check(strcmp(error_of(@() metaopt_graph('x.gr', 'csv')), 'metaopt:badOption'), 'graph-file: a bad format');
check(strcmp(error_of(@() metaopt_graph('thesis', 15, 8)), 'metaopt:invalidArgument'), 'graph-thesis: i too large');
[id, msg] = error_of(@() g.sssp(41));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'sources')), 'sssp: a source out of range');
check(strcmp(error_of(@() g.sssp(1, 'method', 'dijkstra')), 'metaopt:badOption'), 'sssp: a bad method');
check(strcmp(error_of(@() g.sssp(1, 'colour', 1)), 'metaopt:badOption'), 'sssp: an unknown option');
[id, msg] = error_of(@() g.sssp(1, 'method', 'near-far', 'delta', -1));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'delta')), 'sssp: a negative delta (the library names it)');
[id, msg] = error_of(@() g.aco(1, 2, 'evaporation', 2, 'cpu', true));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'evaporation')), 'aco: evaporation 2');
% --- opts.device: a device number (-1: the device in use); a number past the list names device ---
ndev = numel(metaopt_devices());
[d0, p0] = g.sssp(1);
[dd, pd] = g.sssp(1, 'device', ndev - 1);
check(isequal(dd, d0) && isequal(pd, p0), 'sssp: opts.device (the last device) equals the device in use');
[dm, pm] = g.sssp(1, 'device', -1);
check(isequal(dm, d0) && isequal(pm, p0), 'sssp: opts.device -1 is the device in use');
[id, msg] = error_of(@() g.sssp(1, 'device', ndev));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'device')), 'sssp: opts.device past the list (the library names it)');
[id, msg] = error_of(@() g.sssp(1, 'device', -2));
check(~isempty(id) && ~isempty(strfind(msg, 'device')), 'sssp: opts.device -2 names device');
check(strcmp(error_of(@() g.aco(1, 41)), 'metaopt:badArgument'), 'aco: a target out of range');
kq = metaopt_mex('knapsack-generate', 'weak', 5);
[id, msg] = error_of(@() metaopt_sssp(kq, 1));
check(strcmp(id, 'metaopt:wrongKind') && ~isempty(strfind(msg, 'graph')), 'sssp on a knapsack instance');
metaopt_free(kq);
h = metaopt_graph(F);
forged = h;
forged(9) = uint8(5);
forged(25) = bitxor(bitxor(h(25), h(9)), uint8(5));
check(strcmp(error_of(@() metaopt_info(forged)), 'metaopt:badHandle'), 'a graph instance edited to say knapsack');
metaopt_free(h);
check(strcmp(error_of(@() metaopt_sssp(h, 1)), 'metaopt:freedHandle'), 'sssp on a freed graph');

% --- time limits: ACO keeps its best path so far, exact shortest paths give none ---
gb = metaopt_graph('grid', 50, 50, 100, 0, 1);
tic;
r = metaopt_aco(gb, 1, 2500, 'iterations', 1000000, 'timeLimit', 0.3);
took = toc;
check(strcmp(r.stopReason, 'time_limit') && r.iterations > 0 && r.iterations < 1000000 && took < 1.3 ...
      && numel(r.path) >= 99 && r.path(1) == 1 && r.path(end) == 2500 && r.length >= r.exactLength, ...
      sprintf('aco: a 0.3 s limit on a million iterations stops within a second of it (%.2f s, %d iterations)', took, r.iterations));
r = metaopt_aco(gb, 1, 2500, 'iterations', 2);
check(strcmp(r.stopReason, 'budget') && r.iterations == 2, 'aco: stopReason budget after its iterations');
metaopt_free(gb);
big = metaopt_graph('grid', 1000, 1000, 1, 0, 1);
tic;
[id, msg] = error_of(@() metaopt_sssp(big, [1 1000 999001 1000000], 'method', 'bellman-ford', 'timeLimit', 0.3));
took = toc;
check(strcmp(id, 'metaopt:timeLimit') && ~isempty(strfind(msg, 'no result')) && took < 1.3, ...
      sprintf('sssp: past a 0.3 s limit the error metaopt:timeLimit, no result (%.2f s)', took));
metaopt_free(big);

% --- instances: the class frees its graph ---
clear g hk
check(metaopt_mex('live').graph == live0, 'every graph was freed');

fprintf('octave sp tests: %.1f s\n', toc(t0));
printf('%d passed, %d failed\n', PASSED, FAILED);
exit(FAILED > 0);
