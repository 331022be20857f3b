% Octave tests of the metaopt MEX gateway and its m-file wrappers (run by `make test-octave`):
% devices, a QAP instance solved to its best-known value (costs checked in Octave), general HC12
% with m-function objectives (handle and name) and the Table 1 modes, SAT models checked
% against the clauses in Octave, library and argument errors, forged / freed / foreign
% instances, island DE (catalogue, m-function and OpenCL C objectives, 1-based accessors,
% errors and instances), Ctrl-C during long library calls (this Octave sends itself SIGINT),
% stop reasons, and the README's Octave examples. Ends with "N passed, M failed"; exit status 1 on
% a failure.
1;

% check(cond, what): tests/check.m, on the path whatever the current folder
addpath(fileparts(mfilename('fullpath')));

function id = error_id(f)
  % the identifier of the error f() raises ('' when it raises none); the message is printed
  id = '';
  try
    f();
  catch err
    id = err.identifier;
    global LAST_MESSAGE
    LAST_MESSAGE = err.message;
  end
end

function [id, msg, secs, signalled] = interrupt_after(delay, f)
  % calls f() while a background shell sends this Octave SIGINT (Ctrl-C) after `delay` seconds:
  % the identifier and message of the error f() raises ('' when none) and the seconds f() took.
  % The shell sends the signal only while a flag file says that f() still runs, so that a call
  % that fails early is not followed by an interrupt of the test script itself.
  flag = [tempname() '.running'];
  fclose(fopen(flag, 'w'));
  system(sprintf('(sleep %g; [ -e "%s" ] && kill -INT %d && touch "%s.sent") >/dev/null 2>&1 &', delay, flag, getpid(), flag));
  id = '';
  msg = '';
  t = tic;
  try
    f();
  catch err
    id = err.identifier;
    msg = err.message;
  end
  secs = toc(t);
  delete(flag);
  pause(0.2);
  signalled = exist([flag '.sent'], 'file') == 2;
  if signalled
    delete([flag '.sent']);
  end
end

function f = interrupting_objective(X)
  % sum(X .^ 2, 2), calling metaopt_interrupt (mode 'interrupt') at its INTERRUPT_AT-th call:
  % the library call that runs it stops as by a stop request from elsewhere
  global OBJECTIVE_CALLS INTERRUPT_AT
  OBJECTIVE_CALLS = OBJECTIVE_CALLS + 1;
  if OBJECTIVE_CALLS == INTERRUPT_AT
    metaopt_mex('interrupt');
  end
  f = sum(X .^ 2, 2);
end

function out = output_of(varargin)
  % metaopt_mex(varargin{:}) asked for one output
  out = metaopt_mex(varargin{:});
end

function t = with_kind(h, kind)
  % the instance array h saying `kind` (its kind byte changed and its check word made to match)
  t = h;
  t(9) = uint8(kind);
  t(25) = bitxor(bitxor(h(25), h(9)), uint8(kind));
end

function [A, B] = read_qaplib(path)
  fid = fopen(path, 'r');
  v = fscanf(fid, '%d');
  fclose(fid);
  n = v(1);
  A = reshape(v(2:1 + n * n), n, n)';
  B = reshape(v(2 + n * n:1 + 2 * n * n), n, n)';
end

function c = qap_cost(A, B, p)
  c = sum(sum(A .* B(p, p)));
end

function clauses = read_cnf(path)
  text = fileread(path);
  lines = strsplit(text, "\n");
  lits = [];
  for k = 1:numel(lines)
    l = strtrim(lines{k});
    if isempty(l) || l(1) == 'c' || l(1) == 'p'
      continue;
    end
    if l(1) == '%'
      break;
    end
    lits = [lits; sscanf(l, '%d')];
  end
  ends = find(lits == 0);
  clauses = cell(numel(ends), 1);
  s = 1;
  for k = 1:numel(ends)
    clauses{k} = lits(s:ends(k) - 1)';
    s = ends(k) + 1;
  end
end

function bad = unsatisfied(clauses, model)
  bad = 0;
  for k = 1:numel(clauses)
    c = clauses{k};
    if ~any(model(abs(c)) == (c > 0))
      bad = bad + 1;
    end
  end
end

function n = live_total()
  n = metaopt_mex('live').total;
end

function [inside, after_ok] = made_in_a_function(DF)
  % an object made here goes when the function returns
  q = metaopt.QAP(int64(DF), 'swaps', 2);
  inside = live_total();
  after_ok = q.N == size(DF, 1);
end

function ok = run_example(path)
  % runs an example script in this function's workspace; it sets example_ok
  example_ok = false;
  run(path);
  ok = example_ok;
end

function why = octave_only(path)
  % the first Octave-only construct in the m-file (MATLAB would refuse it), '' where none
  why = '';
  lines = strsplit(fileread(path), char(10));
  rules = {'(?<![A-Za-z_])printf\s*\(', 'printf (use fprintf)'; '(?<![A-Za-z_])puts\s*\(', 'puts'; ...
           '!=', '!='; '\+\+|--\s*;', '++ or --'; '[-+*/]=', 'an assignment operator'; '^\s*#', '# comment'; ...
           '"', 'a double-quoted string'; '\<(endif|endfor|endwhile|endfunction|end_try_catch|endswitch|unwind_protect)\>', ...
           'an Octave end keyword'; '(?<![A-Za-z_.])!(?!=)', '! for not'};
  for k = 1:numel(lines)
    code = regexprep(lines{k}, '%.*$', '');  % the examples hold no % inside strings before a comment
    for r = 1:rows(rules)
      if ~isempty(regexp(code, rules{r, 1}, 'once'))
        why = sprintf('line %d: %s', k, rules{r, 2});
        return;
      end
    end
  end
end

global PASSED FAILED LAST_MESSAGE
PASSED = 0;
FAILED = 0;
here = fileparts(mfilename('fullpath'));
root = fileparts(fileparts(here));
addpath(fileparts(here));  % the MEX function and the wrappers
% the test data: METAOPT_DATA_DIR when set, else the repository's data/ (data/SOURCES.md)
data_root = getenv('METAOPT_DATA_DIR');
if isempty(data_root)
  data_root = fullfile(root, 'data');
end
data = fullfile(data_root, 'qaplib');
satlib = fullfile(data_root, 'satlib');
t0 = tic;

% --- devices ---
[devs, cur] = metaopt_devices();
check(numel(devs) >= 1 && cur >= 0 && cur < numel(devs), 'a device list and a current device');
check(~isempty(devs(1).name) && any(strcmp(devs(1).kind, {'gpu', 'accelerator', 'cpu', 'other'})), 'device fields');
check(metaopt_mex('set-device', cur) == cur && metaopt_mex('get-device') == cur, 'set-device / get-device');
check(metaopt_mex('mem-space-valid'), 'mem-space-valid');
check(strcmp(error_id(@() metaopt_mex('set-device', numel(devs))), 'metaopt:invalidArgument'), 'set-device out of range');

% --- QAP (thesis Table 2) ---
[A, B] = read_qaplib(fullfile(data, 'had12.dat'));
DF = tril(A, -1) + triu(B, 1);  % flow below the diagonal, distance above
h = metaopt_mex('params', 12, 12, 4, int64(DF));
check(isa(h, 'uint8') && numel(h) == 32, 'params returns a uint8 instance');
info = metaopt_info(h);
check(info.nElements == 12 && info.swaps == 12 && info.kLength == 24 && info.nBitParam == 4, 'QAP info');
[cost, order, K, it] = metaopt_mex('run', h, [], []);
check(isequal(sort(order), 1:12) && cost == qap_cost(A, B, order) && cost >= 1652, 'run from the identity: the cost of its order');
check(isa(K, 'uint32') && numel(K) == 24 && it >= 1, 'run returns K_GC and the iterations');
[cost2, order2, ~, it2] = metaopt_qap_run(h, 1:12, K);
check(cost2 == cost && isequal(order2, order) && it2 == 1, 'passing the result back continues at the local optimum');
s = metaopt_qap_solve(h, struct('runs', 0, 'timeLimit', 60, 'target', 1652, 'seed', 5));
check(s.cost == 1652 && s.targetReached && qap_cost(A, B, s.permutation) == 1652, 'had12 solved to its BKS 1652');
check(isnan(s.bks), 'no BKS for a matrix instance');
metaopt_mex('set-tabu-list', h, 50);
[ct, ot, ~, itt] = metaopt_qap_run(h);
check(ct <= cost && ct == qap_cost(A, B, ot) && itt > it, 'a tabu run goes on and keeps the best string');
metaopt_free(h);
% nBitParam above ceil(log2(nElements)) (positions I mod n, as the thesis's kernel); below is refused
h6 = metaopt_mex('params', 3, 12, 6, int64(DF));
info6 = metaopt_info(h6);
check(info6.nBitParam == 6 && info6.rows == 1 + 36 + 36 * 35 / 2, 'params: nBitParam 6 makes 6-bit parameters');
[c6, o6, K6] = metaopt_mex('run', h6, [], []);
check(isequal(sort(o6), 1:12) && c6 == qap_cost(A, B, o6) && numel(K6) == 6 && all(K6 < 64), 'a run with 6-bit parameters');
metaopt_free(h6);
check(strcmp(error_id(@() metaopt_mex('params', 3, 12, 3, int64(DF))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'nBitParam')), 'params: fewer bits than ceil(log2(nElements)) are refused, naming nBitParam');
% the same instance as single and as 3-D stack of two slices
h = metaopt_qap_params(4, single(DF));
[c1, o1] = metaopt_qap_run(h);
metaopt_free(h);
h = metaopt_qap_params(4, cat(3, int32(DF), int32(DF)));
[c2, o2] = metaopt_qap_run(h);
check(metaopt_info(h).nSlices == 2 && c2 == 2 * c1 && isequal(o1, o2) && c1 == qap_cost(A, B, o1), 'float and two-slice DF');
metaopt_free(h);
% from the file: the BKS and the gap
h = metaopt_qap_from_file(fullfile(data, 'nug12.dat'), 12);
s = metaopt_qap_solve(h, struct('runs', 0, 'timeLimit', 60, 'target', 578, 'start', 'glb'));
[An, Bn] = read_qaplib(fullfile(data, 'nug12.dat'));
check(s.cost == 578 && s.bks == 578 && s.gapPercent == 0 && qap_cost(An, Bn, s.permutation) == 578, 'nug12 solved to its BKS');
% the starts projected from the eigenvalue bounds (thesis Table 5)
for st = {'hrw', 'pe', 'ab'}
  s = metaopt_qap_solve(h, struct('runs', 1, 'start', st{1}));
  check(s.runs == 1 && s.cost >= 578 && qap_cost(An, Bn, s.permutation) == s.cost, ['start ' st{1}]);
end
check(strcmp(error_of(@() metaopt_qap_solve(h, struct('start', 'evb'))), 'metaopt:badArgument'), 'unknown start');
metaopt_free(h);

% the robust tabu search (qap-ts-solve) on the CPU backend and on the device; the instance keeps
% its own backend
h = metaopt_qap_from_file(fullfile(data, 'had12.dat'), 4);
t = metaopt_qap_ts_solve(h, struct('chains', 4, 'timeLimit', 60, 'target', 1652, 'cpu', true));
check(t.cost == 1652 && t.targetReached && t.bks == 1652 && t.gapPercent == 0 && qap_cost(A, B, t.permutation) == 1652, ...
      'qap-ts-solve: had12 to its BKS');
check(t.chains == 4 && t.iterations > 0 && ischar(t.backend) && ~isempty(strfind(t.backend, 'CPU')), 'qap-ts-solve statistics');
check(strcmp(metaopt_info(h).backend, 'device'), 'qap-ts-solve with cpu leaves the instance on its backend');
% warm starts: a chain started at had12's optimum reports it after one iteration
topt = t.permutation;
tw = metaopt_qap_ts_solve(h, struct('chains', 4, 'iterations', 1, 'seed', 3, 'cpu', true, 'start', [topt(:)'; fliplr(topt(:)')]));
tc = metaopt_qap_ts_solve(h, struct('chains', 4, 'iterations', 1, 'seed', 3, 'cpu', true));
check(tw.cost == 1652 && isequal(tw.permutation(:), topt(:)) && tc.cost > 1652, 'qap-ts-solve: warm starts');
check(strcmp(error_of(@() metaopt_qap_ts_solve(h, struct('start', [1 2 3]))), 'metaopt:badArgument'), ...
      'qap-ts-solve: a start of the wrong size');
[sid, smsg] = error_of(@() metaopt_qap_ts_solve(h, struct('chains', 1, 'iterations', 1, 'start', [topt(:)'; topt(:)'])));
check(strcmp(sid, 'metaopt:invalidArgument') && ~isempty(strfind(smsg, 'starts')), 'qap-ts-solve: more starts than chains');
t1 = metaopt_mex('qap-ts-solve', h, struct('chains', 3, 'iterations', 300, 'seed', 7, 'tenure', 'uniform', 'cpu', true, ...
                 'eliteSize', 4, 'stagnation', 100, 'perturbation', [2 3], 'launchIterations', 100));
t2 = metaopt_qap_ts_solve(h, struct('chains', 3, 'iterations', 300, 'seed', 7, 'tenure', 'uniform', 'cpu', true, ...
                 'eliteSize', 4, 'stagnation', 100, 'perturbation', [2 3], 'launchIterations', 100));
check(t1.iterations == 300 && t1.launches >= 3 && t1.cost == t2.cost && isequal(t1.permutation, t2.permutation), ...
      'qap-ts-solve: options, and the same seed gives the same result');
t3 = metaopt_qap_ts_solve(h, struct('chains', 3, 'iterations', 300, 'seed', 7, 'cpu', true, 'eliteSize', 4, ...
                 'stagnation', 50, 'launchIterations', 50, 'crossover', 1));
t4 = metaopt_qap_ts_solve(h, struct('chains', 3, 'iterations', 300, 'seed', 7, 'cpu', true, 'eliteSize', 4, ...
                 'stagnation', 50, 'launchIterations', 50, 'crossover', 1));
check(t3.restarts > 0 && t3.cost == t4.cost && isequal(t3.permutation, t4.permutation), ...
      'qap-ts-solve: crossover restarts, reproducible');
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, struct('crossover', 2, 'cpu', true))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.crossover')), 'qap-ts-solve: crossover above 1');
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, struct('chains', 0, 'cpu', true))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.chains')), 'qap-ts-solve: chains 0');
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, struct('iterations', 0, 'cpu', true))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.iterations')), 'qap-ts-solve: iterations 0 without a time limit');
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, struct('tenure', 'long', 'cpu', true))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.tenure')), 'qap-ts-solve: a bad tenure');
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, struct('chain', 3))), 'metaopt:badOption'), 'qap-ts-solve: an unknown option');
% sizes above 256: the tabu search takes them (device = CPU backend), HC12 names its own limit;
% a chain count that does not fit the memory is refused when fitChains is false
n300 = 300;
DF300 = int32(mod((1:n300)' * (1:n300), 19));
DF300(1:n300 + 1:end) = 0;
hb = metaopt_qap_params(1, DF300);
tb = metaopt_qap_ts_solve(hb, struct('chains', 2, 'iterations', 30, 'cpu', true));
td = metaopt_qap_ts_solve(hb, struct('chains', 2, 'iterations', 30));
check(tb.cost == td.cost && isequal(tb.permutation, td.permutation) && max(tb.permutation) == n300 && ...
      tb.chains == 2 && tb.chainsRequested == 2, 'qap-ts-solve: n = 300 on the device and the CPU backend');
[bid, bmsg] = error_of(@() metaopt_qap_solve(hb, struct('runs', 1)));
check(strcmp(bid, 'metaopt:invalidArgument') && ~isempty(strfind(bmsg, '256')), 'qap-solve (HC12): its own limit on n');
[bid, bmsg] = error_of(@() metaopt_qap_ts_solve(hb, struct('chains', 1048576, 'iterations', 1, 'cpu', true, 'fitChains', false)));
check(strcmp(bid, 'metaopt:invalidArgument') && ~isempty(strfind(bmsg, 'at most')), 'qap-ts-solve: chains that do not fit, refused');
metaopt_free(hb);
% checkpoints: a search saved after 600 iterations and resumed ends as the one of 1500 that
% never stopped, from the saved bytes and from a checkpoint file
ck = struct('chains', 3, 'seed', 5, 'stagnation', 200, 'launchIterations', 150, 'cpu', true);
whole = metaopt_qap_ts_solve(h, setfield(ck, 'iterations', 1500));
part = metaopt_qap_ts_solve(h, setfield(ck, 'iterations', 600));
st = metaopt_qap_ts_save_state(h);
check(isa(st, 'uint8') && numel(st) > 100 && part.iterations == 600, 'qap-ts-save-state: the bytes of a state');
res = metaopt_qap_ts_solve(h, setfield(setfield(ck, 'iterations', 1500), 'resume', st));
check(res.cost == whole.cost && isequal(res.permutation, whole.permutation) && res.restarts == whole.restarts && ...
      res.iterations == 1500, 'qap-ts-solve: resumed from the saved bytes, as the uninterrupted search');
ckfile = [tempname() '.state'];
metaopt_qap_ts_solve(h, setfield(setfield(setfield(ck, 'iterations', 600), 'checkpoint', ckfile), 'checkpointEvery', 0.01));
res = metaopt_qap_ts_solve(h, setfield(setfield(ck, 'iterations', 1500), 'resume', ckfile));
check(res.cost == whole.cost && isequal(res.permutation, whole.permutation), 'qap-ts-solve: resumed from a checkpoint file');
delete(ckfile);
[cid, cmsg] = error_of(@() metaopt_qap_ts_solve(h, setfield(setfield(ck, 'iterations', 1500), 'resume', st(1:end-3))));
check(strcmp(cid, 'metaopt:invalidArgument') && ~isempty(strfind(cmsg, 'truncated')), 'qap-ts-solve: a truncated state is refused');
[cid, cmsg] = error_of(@() metaopt_qap_ts_solve(h, setfield(setfield(setfield(ck, 'seed', 6), 'iterations', 1500), 'resume', st)));
check(strcmp(cid, 'metaopt:invalidArgument') && ~isempty(strfind(cmsg, 'option seed')), 'qap-ts-solve: a state of another seed is refused');
metaopt_qap_ts_solve(h, setfield(ck, 'iterations', 10)); % the state above was left loaded: used up here
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, setfield(ck, 'resume', 3))), 'metaopt:badArgument'), 'qap-ts-solve: resume of the wrong type');
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, setfield(ck, 'checkpointEvery', 1))), 'metaopt:badArgument'), ...
      'qap-ts-solve: checkpointEvery without checkpoint');
% the iterated HC12 solve's checkpoints: 4 runs saved and resumed end as the 10 runs that never
% stopped, from the saved bytes and from a checkpoint file
hk = struct('seed', 11);
hwhole = metaopt_qap_solve(h, setfield(hk, 'runs', 10));
hpart = metaopt_qap_solve(h, setfield(hk, 'runs', 4));
hst = metaopt_qap_save_state(h);
check(isa(hst, 'uint8') && numel(hst) > 50 && hpart.runs == 4, 'qap-save-state: the bytes of a state');
res = metaopt_qap_solve(h, setfield(setfield(hk, 'runs', 10), 'resume', hst));
check(res.cost == hwhole.cost && isequal(res.permutation, hwhole.permutation) && res.runs == 10 && ...
      res.iterations == hwhole.iterations, 'solve: resumed from the saved bytes, as the uninterrupted solve');
ckfile = [tempname() '.state'];
metaopt_qap_solve(h, setfield(setfield(hk, 'runs', 4), 'checkpoint', ckfile));
res = metaopt_qap_solve(h, setfield(setfield(hk, 'runs', 10), 'resume', ckfile));
check(res.cost == hwhole.cost && isequal(res.permutation, hwhole.permutation), 'solve: resumed from a checkpoint file');
delete(ckfile);
[cid, cmsg] = error_of(@() metaopt_qap_solve(h, setfield(setfield(hk, 'runs', 10), 'resume', hst(1:end-3))));
check(strcmp(cid, 'metaopt:invalidArgument') && ~isempty(strfind(cmsg, 'truncated')), 'solve: a truncated state is refused');
[cid, cmsg] = error_of(@() metaopt_qap_solve(h, setfield(setfield(hk, 'runs', 10), 'resume', st)));
check(strcmp(cid, 'metaopt:invalidArgument') && ~isempty(strfind(cmsg, 'qap_ts')), 'solve: a tabu search state is refused');
[cid, cmsg] = error_of(@() metaopt_qap_solve(h, setfield(setfield(setfield(hk, 'seed', 12), 'runs', 10), 'resume', hst)));
check(strcmp(cid, 'metaopt:invalidArgument') && ~isempty(strfind(cmsg, 'option seed')), 'solve: a state of another seed is refused');
check(strcmp(error_id(@() metaopt_qap_solve(h, setfield(hk, 'checkpointEvery', 1))), 'metaopt:badArgument'), ...
      'solve: checkpointEvery without checkpoint');
check(strcmp(error_id(@() metaopt_qap_ts_solve(h, struct('launchIterations', 3, 'iterations', 10, 'eliteSize', 1, ...
      'stagnation', 1, 'perturbation', [1 1], 'cpu', true, 'target', -1, 'chains', 2, 'seed', 1, 'timeLimit', 1, 'tenure', 'cubic'))), ''), ...
      'qap-ts-solve: every option at once');
t3 = metaopt_qap_ts_solve(h, struct('chains', 3, 'iterations', 300, 'seed', 7, 'tenure', 'uniform', ...
                 'eliteSize', 4, 'stagnation', 100, 'perturbation', [2 3], 'launchIterations', 100));
check(t3.cost == t1.cost && isequal(t3.permutation, t1.permutation) && ~isempty(strfind(t3.backend, 'device')), ...
      'qap-ts-solve: the device gives the CPU result on integer data');
metaopt_free(h);
check(strcmp(error_id(@() metaopt_qap_ts_solve(h)), 'metaopt:freedHandle'), 'qap-ts-solve on a freed instance');

% QAP errors: library errors with their code, argument errors naming the argument
bad = DF;
bad(3, 3) = 7;
check(strcmp(error_id(@() metaopt_qap_params(4, int64(bad))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'diagonal')), 'a nonzero diagonal is a library error');
check(strcmp(error_id(@() metaopt_mex('params', 4, 12, 4, DF(:, 1:11))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'DF must be')), 'a non-square DF');
check(strcmp(error_id(@() metaopt_mex('params', 4, 12, 3, DF)), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'nBitParam')), 'nBitParam below ceil(log2(nElements))');
check(strcmp(error_id(@() metaopt_mex('params', 4, 12, 33, DF)), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'nBitParam')), 'nBitParam above 32');
check(strcmp(error_id(@() metaopt_mex('params', 4, 12, [], int8(DF))), 'metaopt:badArgument'), 'an int8 DF');
nanDF = DF; nanDF(2, 5) = NaN;
check(strcmp(error_id(@() metaopt_qap_params(4, nanDF)), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'NaN')), 'a NaN in DF');
check(strcmp(error_id(@() metaopt_qap_from_file(fullfile(data, 'none.dat'), 4)), 'metaopt:io'), 'a missing file');
h = metaopt_qap_params(4, int64(DF));
check(strcmp(error_id(@() metaopt_qap_run(h, [1 1 2 3 4 5 6 7 8 9 10 11])), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'initOrder')), 'initOrder must be a permutation');
check(strcmp(error_id(@() metaopt_qap_run(h, [], [1 2 3])), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'initKernel')), 'initKernel length');
check(strcmp(error_id(@() metaopt_qap_solve(h, struct('timeLimit', NaN))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.timeLimit is NaN')), 'a NaN option');
metaopt_free(h);

% --- general HC12 (thesis Table 1) with m-function objectives ---
g = metaopt_hc12_params(5, 16, [-5.12 5.12], 'real,double');
[v, x, r] = metaopt_hc12_run(g, @(R) sum(R .^ 2, 2), struct('runs', 2, 'seed', 3));
check(v < 1e-6 && all(abs(x) < 1e-3) && abs(v - sum(x .^ 2)) < 1e-12, 'HC12 minimises an anonymous m-function to ~0');
check(numel(r.runValues) == 2 && v == min(r.runValues) && r.objectiveCalls >= sum(r.runIterations), 'run statistics');
[v2, x2] = metaopt_mex('run', g, 'GC', 2, [], 'sphere_objective', 'min', 'seed', 3);
check(v2 == v && isequal(x2, x), 'an m-function by name gives the same run');
[v3, x3] = metaopt_mex('run', g, 'GC', 2, [], '@F1', 'min', 'seed', 3);
check(abs(v3 - v) < 1e-12 && isequal(x3, x), 'the catalogue F1 on the device gives the same run');
% checkpoints: 3 runs saved and resumed end as the 7 runs that never stopped
gk = struct('seed', 3, 'maxIterations', 30);
[wv, wx, wr] = metaopt_hc12_run(g, '@F1', setfield(gk, 'runs', 7));
metaopt_hc12_run(g, '@F1', setfield(gk, 'runs', 3));
gst = metaopt_hc12_save_state(g);
check(isa(gst, 'uint8') && numel(gst) > 50, 'hc12-save-state: the bytes of a state');
[rv, rx, rr] = metaopt_hc12_run(g, '@F1', setfield(setfield(gk, 'runs', 7), 'resume', gst));
check(rv == wv && isequal(rx, wx) && isequal(rr.runValues, wr.runValues) && isequal(rr.runIterations, wr.runIterations), ...
      'hc12 run: resumed from the saved bytes, as the uninterrupted runs');
ckfile = [tempname() '.state'];
metaopt_hc12_run(g, '@F1', setfield(setfield(gk, 'runs', 3), 'checkpoint', ckfile));
[rv, rx] = metaopt_hc12_run(g, '@F1', setfield(setfield(gk, 'runs', 7), 'resume', ckfile));
check(rv == wv && isequal(rx, wx), 'hc12 run: resumed from a checkpoint file');
delete(ckfile);
[cid, cmsg] = error_of(@() metaopt_hc12_run(g, '@F1', setfield(setfield(setfield(gk, 'seed', 4), 'runs', 7), 'resume', gst)));
check(strcmp(cid, 'metaopt:invalidArgument') && ~isempty(strfind(cmsg, 'option seed')), 'hc12 run: a state of another seed is refused');
[cid, cmsg] = error_of(@() metaopt_hc12_run(g, '@F1', setfield(setfield(gk, 'runs', 7), 'resume', gst(1:end-3))));
check(strcmp(cid, 'metaopt:invalidArgument') && ~isempty(strfind(cmsg, 'truncated')), 'hc12 run: a truncated state is refused');
check(strcmp(error_id(@() metaopt_hc12_run(g, '@F1', setfield(gk, 'checkpointEvery', 1))), 'metaopt:badArgument'), ...
      'hc12 run: checkpointEvery without checkpoint');
[v4, x4] = metaopt_mex('run', g, 'BC', 1, 'bit-zeros', @(R) -sum(R, 2), 'max');
check(abs(v4 - 5 * 5.12) < 1e-9 && all(abs(x4 + 5.12) < 1e-9), 'maximising from bit-zeros');
[v5, x5, r5] = metaopt_mex('run', g, 'GC', 1, [0.3 -0.2 0 0 0], @(R) sum(R .^ 2, 2), 'min');
check(r5.iterations >= 1 && v5 <= 0.3^2 + 0.2^2 + 1e-9, 'a start vector');
% tabu list, kernel-verbose, profiler
metaopt_mex('set-tabu-list', g, 40);
metaopt_mex('profiler-on', g);
metaopt_mex('kernel-verbose', g, 0);
[vp, ~, rp] = metaopt_mex('run', g, 'GC', 1, [], '@F6', 'min', 'seed', 2);
[vt, ~, rt] = metaopt_mex('run:taboo', g, 'GC', 1, [], '@F6', 'min', [], 60, 'seed', 2, 'tabuIterations', 200, 'noImprove', 30);
check(vt <= vp && rt.iterations > rp.iterations, 'run:taboo goes past the local optimum and keeps the best');
t0 = tic;
[vl, ~, rl] = metaopt_mex('run', g, 'GC', 100000, [], '@F6', 'min', 'maxIterations', 1000000, 'timeLimit', 0.5);
check(strcmp(rl.stopReason, 'time_limit') && isfinite(vl) && toc(t0) < 2.5, 'timeLimit stops the runs between climb steps');
prof = metaopt_mex('profiler-output', g);
check(~isempty(strfind(prof, 'hc12g_eval launches=')), 'profiler-output lists the kernels');
txt = metaopt_info(g);
check(~isempty(strfind(txt, 'tabu list: 60 strings')) && ~isempty(strfind(txt, 'F6')) && ...
      ~isempty(strfind(txt, 'profiler: on')), 'info describes the instance');
% objective errors reach the caller with their own identifier
check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], 'failing_objective', 'min')), 'metaoptTest:failing') && ...
      ~isempty(strfind(LAST_MESSAGE, 'failing objective called with')), 'an m-function error is rethrown');
check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], @(R) NaN(size(R, 1), 1), 'min')), 'metaopt:objective') && ...
      ~isempty(strfind(LAST_MESSAGE, 'NaN for row 1')), 'a NaN objective value');
check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], @(R) [1 2 3], 'min')), 'metaopt:objective') && ...
      ~isempty(strfind(LAST_MESSAGE, 'must return')), 'a wrong number of values');
[vv] = metaopt_mex('run', g, 'GC', 1, [], @(R) sum(abs(R), 2), 'min');
check(vv >= 0 && vv < 1e-3, 'the instance is usable after an objective error');
check(strcmp(error_id(@() metaopt_mex('run', g, 'GCi', 1, [], '@F1', 'min')), 'metaopt:unsupported') && ...
      ~isempty(strfind(LAST_MESSAGE, 'does not define it')), 'GCi: refused, the thesis does not define it');
check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [1 2], '@F1', 'min')), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'startSeed')), 'startSeed length');
check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], '@F1', 'mid')), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'funOpt')), 'funOpt');
check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], '@NoSuchFunction', 'min')), 'metaopt:invalidArgument'), 'unknown catalogue function');
check(strcmp(error_id(@() metaopt_mex('run:fast', g, 'GC', 1, [], '@F1', 'min')), 'metaopt:badOption'), 'an unknown run option');
metaopt_free(g);
check(strcmp(error_id(@() metaopt_hc12_params(3, 8, [0 NaN])), 'metaopt:badArgument'), 'a NaN interval');
check(strcmp(error_id(@() metaopt_hc12_params(3, [8 8], [0 1])), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'nBitParam')), 'nBitParam length');
check(strcmp(error_id(@() metaopt_hc12_params(3, 33, [0 1])), 'metaopt:badArgument'), 'nBitParam > 32');
% params:noR with an OpenCL C objective and its func-data
cl = [tempname() '.cl'];
fid = fopen(cl, 'w');
fprintf(fid, ['FP objective_u(__global const uint *v, uint dims, uint stride, __global const void *data)\n' ...
              '{ __global const uint *t = (__global const uint *)data; FP s = 0;\n' ...
              '  for (uint j = 0; j < dims; ++j) s += fabs((FP)v[j * stride] - (FP)t[j]); return s; }\n']);
fclose(fid);
g = metaopt_mex('params:noR', 3, 8, [0 1]);
metaopt_mex('func-data', g, ['@' cl], uint32([37 5 200]));
[vi, xi, ri] = metaopt_mex('run', g, 'BC', 4, [], ['@' cl], 'min');
check(vi == 0 && isequal(xi, [37 5 200]) && isequal(ri.string, uint32([37 5 200])), 'params:noR, an OpenCL C objective and func-data');
check(~isempty(strfind(metaopt_info(g), 'func-data: 12 bytes')), 'func-data reaches the instance');
metaopt_mex('func-data-clean', g, ['@' cl]);
check(~isempty(strfind(metaopt_info(g), 'func-data: 0 bytes')), 'func-data-clean');
metaopt_free(g);
delete(cl);

% --- SAT ---
for name = {'uf20-91/uf20-01.cnf', 'uf50-218/uf50-01.cnf'}
  path = fullfile(satlib, name{1});
  clauses = read_cnf(path);
  h = metaopt_sat_parse(path);
  in = metaopt_info(h);
  r = metaopt_sat_solve(h, struct('timeLimit', 60));
  check(r.satisfiable && r.bestUnsatisfied == 0 && numel(r.model) == in.numVars, [name{1} ': a model']);
  check(unsatisfied(clauses, r.model) == 0 && numel(clauses) == in.numClauses, [name{1} ': every clause satisfied, checked in Octave']);
  check(isequal(r.literals, (1:in.numVars) .* (2 * r.model - 1)), [name{1} ': literals']);
  check(metaopt_sat_evaluate(h, r.model) == in.numClauses, [name{1} ': the evaluator agrees']);
  metaopt_free(h);
end
% the walks, every method: models checked in Octave; a flip budget on uuf counts flips and restarts
path = fullfile(satlib, 'uf50-218/uf50-01.cnf');
clauses = read_cnf(path);
s = metaopt.SAT(path);
for m = {struct('method', 'probsat'), struct('method', 'walksat', 'cpu', true, 'walks', 2), ...
         struct('method', 'probsat', 'cpu', true, 'cb', 2.5, 'eps', 1), struct('method', 'hc12')}
  [x, fval, info] = s.solve(setfield(m{1}, 'timeLimit', 30));
  check(info.satisfiable && fval == 0 && unsatisfied(clauses, x) == 0 && strcmp(info.method, m{1}.method) && ...
        strcmp(info.stopReason, 'target'), ['SAT.solve ' m{1}.method ': a model checked in Octave']);
  if ~strcmp(m{1}.method, 'hc12')
    check(info.flips > 0 && info.walks >= 1 && info.flipsPerSecond > 0, ['SAT.solve ' m{1}.method ': flips']);
  end
end
delete(s);
u = metaopt_sat_parse(fullfile(satlib, 'uuf50-218/uuf50-01.cnf'));
r = metaopt_sat_solve(u, struct('cpu', true, 'walks', 2, 'maxFlips', 5000, 'restartFlips', 1000, 'timeLimit', 0));
check(~r.satisfiable && r.flips == 10000 && r.restarts == 8 && r.walks == 2 && r.bestUnsatisfied >= 1 && strcmp(r.stopReason, 'budget'), ...
      'probSAT walks on uuf50: a flip budget, restarts counted');
metaopt_free(u);
h = metaopt_sat_from_clauses(3, {[1 -2], [2 3], -1});
counts = metaopt_sat_evaluate(h, logical([0 0 1; 1 1 1]));
check(isequal(counts, [3; 2]) && isequal(metaopt_sat_evaluate(h, [0 0 1; 1 1 1], true), [3; 2]), 'sat-evaluate, device and CPU');
r = metaopt_sat_solve(h, struct('method', 'hc12', 'runs', 10, 'timeLimit', 0));
check(r.satisfiable && isequal(r.model, logical([0 0 1])) && strcmp(r.method, 'hc12'), 'a clause list solved');
r = metaopt_sat_solve(h, struct('maxFlips', 1000, 'timeLimit', 0, 'cpu', true));
check(r.satisfiable && isequal(r.model, logical([0 0 1])) && strcmp(r.method, 'probsat'), 'a clause list solved by probSAT');
check(strcmp(error_id(@() metaopt_sat_evaluate(h, [1 0])), 'metaopt:badArgument'), 'sat-evaluate shape');
check(strcmp(error_id(@() metaopt_sat_solve(h, struct('method', 'gsat'))), 'metaopt:badOption'), 'an unknown SAT method');
check(strcmp(error_id(@() metaopt_sat_solve(h, struct('method', 'walksat', 'noise', 2))), 'metaopt:invalidArgument'), 'WalkSAT noise above 1');
check(strcmp(error_id(@() metaopt_sat_solve(h, struct('method', 'hc12', 'maskOrder', 5))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.mask_order')), 'a library option error');
metaopt_free(h);
h2 = metaopt_mex('sat-clauses', 3, [1 -2 0 2 3 0 -1 0]);
check(metaopt_info(h2).numClauses == 3, 'sat-clauses from DIMACS literals');
check(strcmp(error_id(@() metaopt_sat_from_clauses(3, {[1 4]})), 'metaopt:badArgument'), 'a literal out of range');
check(strcmp(error_id(@() metaopt_sat_parse(fullfile(satlib, 'none.cnf'))), 'metaopt:io'), 'a missing CNF');

% --- checkpoints and warm starts of the walks ---
global LAST_MESSAGE
u = metaopt_sat_parse(fullfile(satlib, 'uuf50-218/uuf50-01.cnf'));
h = metaopt_sat_from_clauses(3, {[1 -2], [2 3], -1});
cp = [tempname() '.state'];
wopts = struct('cpu', true, 'walks', 2, 'maxFlips', 6000, 'flipsPerLaunch', 1000, 'restartFlips', 2500, 'timeLimit', 0, 'seed', 5);
whole = metaopt_sat_solve(u, wopts);
p = wopts;
p.maxFlips = 2000;
p.checkpoint = cp;
part = metaopt_sat_solve(u, p);
r = metaopt_sat_solve(u, setfield(wopts, 'resume', cp));
check(part.flips == 4000 && r.flips == whole.flips && r.restarts == whole.restarts && isequal(r.assignment, whole.assignment), ...
      'sat-solve: a checkpoint resumes to the uninterrupted walks');
q = wopts;
q.seed = 6;
q.resume = cp;
check(strcmp(error_id(@() metaopt_sat_solve(u, q)), 'metaopt:invalidArgument') && ~isempty(strfind(LAST_MESSAGE, 'option seed was 5')), ...
      'sat-solve: a checkpoint of other options');
check(strcmp(error_id(@() metaopt_sat_solve(u, setfield(wopts, 'resume', [cp '.none']))), 'metaopt:io'), 'sat-solve: a missing checkpoint');
delete(cp);
r = metaopt_sat_solve(h, struct('maxFlips', 1000, 'timeLimit', 0, 'cpu', true, 'start', logical([0 0 1])));
check(r.satisfiable && r.flips == 0 && strcmp(r.stopReason, 'target'), 'sat-solve: a start at a model');
check(strcmp(error_id(@() metaopt_sat_solve(h, struct('cpu', true, 'maxFlips', 10, 'timeLimit', 0, 'start', [1 0]))), 'metaopt:badOption'), ...
      'sat-solve: a start of another length');
metaopt_free(u);
metaopt_free(h);

% --- knapsack and QIGA ---
global LAST_MESSAGE
kpath = fullfile(data_root, 'knapsack', 'knapsack-250.txt');
k = metaopt_knapsack_from_file(kpath);
o = metaopt_knapsack_optimum(k);
check(o.value == 1533.821142 && numel(o.items) == 172 && sum(o.bits) == 172, 'knapsack-250: optimum 1533.821142 with 172 items');
e = metaopt_knapsack_evaluate(k, o.bits);
check(e.profit == o.value && e.feasible, 'knapsack-evaluate agrees with the optimum');
check(~metaopt_knapsack_evaluate(k, true(1, 250)).feasible, 'knapsack-evaluate: every item is too heavy');
d = metaopt_knapsack_data(k);
check(d.n == 250 && d.scale == 1e6 && strcmp(d.name, 'knapsack-250') && numel(d.weights) == 250, 'knapsack-data');
check(metaopt_info(k).n == 250 && strcmp(metaopt_info(k).kind, 'knapsack'), 'info of a knapsack instance');
rd = metaopt_qiga_run(k, 'populations', 24, 'generations', 20, 'seed', 5);
rc = metaopt_qiga_run(k, struct('populations', 24, 'generations', 20, 'seed', 5, 'cpu', true));
check(isequal(rd.bestValue, rc.bestValue) && isequal(rd.bestBits, rc.bestBits) && ...
      isequal(rd.bestGeneration, rc.bestGeneration) && isequal(rd.generationsRun, rc.generationsRun), 'qiga-run: the device equals the CPU');
check(isequal(size(rd.bestBits), [24 250]) && rd.stats.count == 24 && strcmp(rd.stopReason, 'budget') && ...
      isequal(rd.population, (0:23)'), 'qiga-run: the result''s shape');
ok = true;
for i = 1:24
  ev = metaopt_knapsack_evaluate(k, rd.bestBits(i, :));
  ok = ok && ev.feasible && abs(ev.profit - rd.bestValue(i)) < 1e-9 && rd.bestValue(i) <= o.value;
end
check(ok, 'qiga-run: every string fits and is worth its value');
check(rd.best == max(rd.bestValue) && rd.bestValue(rd.bestIndex) == rd.best && rd.stats.max == rd.best, 'qiga-run: best and bestIndex');
rt = metaopt_qiga_run(k, 'populations', 6, 'generations', 5, 'table', {'gqa2000', sprintf('0 1 1 10 -1 +1 +1 0\n')}, ...
                      'popsPerTable', 3, 'repair', 'greedy', 'poleSigns', 'random');
check(numel(rt.tableStats) == 2 && rt.tableStats(1).count == 3 && rt.tableStats(2).count == 3, 'qiga-run: a tuning run over two tables');
rg = metaopt_qiga_run(k, 'populations', 4, 'generations', 50, 'target', 0);
check(strcmp(rg.stopReason, 'target') && all(rg.generationsRun == 0), 'qiga-run: a target');
cq = [tempname() '.state'];
qo = struct('populations', 24, 'generations', 60, 'seed', 5, 'cpu', true, 'launchPopulations', 8);
qw = metaopt_qiga_run(k, qo);
qp = qo;
qp.timeLimit = 0.02;
qp.checkpoint = cq;
metaopt_qiga_run(k, qp);
qr = metaopt_qiga_run(k, setfield(qo, 'resume', cq));
check(isequal(qr.bestValue, qw.bestValue) && isequal(qr.bestBits, qw.bestBits) && isequal(qr.generationsRun, qw.generationsRun), ...
      'qiga-run: a checkpoint resumes to the uninterrupted run');
delete(cq);
rs = metaopt_qiga_run(k, 'populations', 4, 'generations', 50, 'cpu', true, 'start', o.bits, 'target', o.value);
check(strcmp(rs.stopReason, 'target') && all(rs.generationsRun == 0) && isequal(rs.bestBits, repmat(logical(o.bits(:)'), 4, 1)), ...
      'qiga-run: a start at the optimum');
check(strcmp(error_id(@() metaopt_qiga_run(k, 'populations', 2, 'cpu', true, 'start', true(1, 10))), 'metaopt:badOption'), ...
      'qiga-run: a start of another length');
check(strcmp(error_id(@() metaopt_qiga_run(k, 'repair', 'best')), 'metaopt:badOption'), 'qiga-run: a bad repair');
check(strcmp(error_id(@() metaopt_qiga_run(k, 'bogus', 1)), 'metaopt:badOption'), 'qiga-run: an unknown option');
check(strcmp(error_id(@() metaopt_qiga_run(k, 'populations', 2, 'table', '0 1 1 999 -1 +1 +1 0')), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'tables[0]')), 'qiga-run: a bad table text names it');
check(strcmp(error_id(@() metaopt_qiga_run(k, 'populations', 2, 'timeLimit', NaN)), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'timeLimit')), 'qiga-run: a NaN time limit');
check(strcmp(error_id(@() metaopt_qiga_run(k, 'populations', 2, 'timeLimit', -1)), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'time_limit_s')), 'qiga-run: a negative time limit (the library names the field)');
check(strcmp(error_id(@() metaopt_knapsack_from_arrays([1 NaN], [1 2], 3)), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'weights(2)')), 'knapsack-arrays: NaN weights named');
check(strcmp(error_id(@() metaopt_knapsack_from_arrays([1 -2], [1 2], 3)), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'weights')), 'knapsack-arrays: a negative weight (the library names it)');
check(strcmp(error_id(@() metaopt_knapsack_from_arrays([1 2], [1 2 3], 3)), 'metaopt:badArgument'), 'knapsack-arrays: sizes');
check(strcmp(error_id(@() metaopt_knapsack_generate('nope', 10)), 'metaopt:badArgument'), 'knapsack-generate: a bad kind');
check(strcmp(error_id(@() metaopt_knapsack_evaluate(k, [1 0])), 'metaopt:badArgument'), 'knapsack-evaluate: the size');
check(strcmp(error_id(@() metaopt_knapsack_from_file(fullfile(data_root, 'knapsack', 'none.txt'))), 'metaopt:io'), 'a missing knapsack file');
ks = metaopt_sat_from_clauses(2, {[1 2]});
check(strcmp(error_id(@() metaopt_qiga_run(ks)), 'metaopt:wrongKind') && strcmp(error_id(@() metaopt_sat_solve(k)), 'metaopt:wrongKind'), ...
      'qiga-run and sat-solve refuse each other''s instances');
metaopt_free(ks);
k100 = metaopt_knapsack_from_file(fullfile(data_root, 'knapsack', 'knapsack-100.txt'));
o100 = metaopt_knapsack_optimum(k100);
check(abs(o100.value - 609.4956) < 1e-9 && sum(o100.bits) == 67, 'knapsack-optimum: knapsack-100 meets the cardinality bound');
metaopt_free(k100);
g = metaopt_knapsack_generate('strong', 30, 200, 4);
gd = metaopt_knapsack_data(g);
check(isequal(gd.profits, gd.weights + 20) && strcmp(gd.name, 'strong-30-s4'), 'knapsack-generate strong');
metaopt_free(g);
a = metaopt_knapsack_from_arrays([2.5 3 1.25 4], [3 4.5 2 1], 5);
check(metaopt_knapsack_optimum(a).value == 6.5, 'knapsack-arrays: the optimum');
metaopt_free(a);
qg = metaopt.QIGA(kpath);
r = qg.run('populations', 8, 'generations', 5);
check(qg.N == 250 && numel(r.bestValue) == 8 && qg.optimum().value == o.value && qg.evaluate(o.bits).feasible, 'metaopt.QIGA');
qa = metaopt.QIGA('generate', 'weak', 20, 100, 2);
check(qa.N == 20 && qa.data().n == 20, 'metaopt.QIGA of a generated instance');
clear qg qa
metaopt_free(k);
check(strcmp(error_id(@() metaopt_qiga_run(k)), 'metaopt:freedHandle'), 'qiga-run on a freed instance');

% --- batched DE: many problems in one batch ('bde-run', metaopt.BatchDE) ---
bp = struct('function', {'F1', 'F6', 'CEC07t'}, 'dims', {6, 3, 10}, 'lower', {-5.12, [-5.12 -5 -4], -100}, ...
            'upper', {5.12, 5.12, 100}, 'members', {24, 12, 20}, 'generations', {3000, 40, 15}, ...
            'target', {1e-10, [], []}, 'mutation', {'DE/rand/1', 'DE/best/1', 'DE/rand/1'}, ...
            'bounds', {'sat', 'mir', 'sat'}, 'seed', {5, 1, 77});
bc = metaopt_mex('bde-run', bp, struct('cpu', true));
check(isequal(size(bc.bestValue), [3 1]) && iscell(bc.best) && isequal(cellfun(@numel, bc.best)', [6 3 10]), 'bde-run: the result''s shape');
check(bc.bestValue(1) <= 1e-10 && strcmp(bc.stopReason{1}, 'target') && bc.generations(1) < 3000, 'bde-run: sphere reaches its target');
check(abs(sum(bc.best{1} .^ 2) - bc.bestValue(1)) < 1e-15, 'bde-run: the best vector is worth its value');
check(isequal(bc.generations(2:3)', [40 15]) && all(strcmp(bc.stopReason(2:3), 'budget')), 'bde-run: budgets');
check(bc.best{2}(2) <= 5 && bc.best{2}(3) <= 4 && all(bc.best{2} >= -5.12), 'bde-run: per-dimension bounds hold');
check(strcmp(bc.precision, 'double'), 'bde-run: the CPU backend computes in double');
bd = metaopt_mex('bde-run', bp, struct('precision', 'double', 'generationsPerLaunch', 7));
check(all(abs(bd.bestValue - bc.bestValue) <= 1e-12 * max(abs(bc.bestValue), 1e-300) | ...
          (abs(bd.bestValue) < 1e-12 & abs(bc.bestValue) < 1e-12)) && isequal(bd.generations, bc.generations), ...
      'bde-run: the device equals the CPU backend in double');
% checkpoints: a batch stopped by a time limit, saved and resumed, ends as the one that never stopped
bck = [tempname() '.state'];
bl = bp;
bl(1).target = [];
bl(1).generations = 60000;
bwhole = metaopt_mex('bde-run', bl, struct('cpu', true));
bcut = metaopt_mex('bde-run', bl, struct('cpu', true, 'timeLimit', 0.02, 'checkpoint', bck));
bres = metaopt_mex('bde-run', bl, struct('cpu', true, 'resume', bck));
check(strcmp(bcut.stopReason{1}, 'time_limit') && isequal(bres.bestValue, bwhole.bestValue) && ...
      isequal(bres.generations, bwhole.generations) && isequal(bres.best, bwhole.best), 'bde-run: resumed from a checkpoint');
bq = bp;
bq(2).seed = 2;
check(strcmp(error_id(@() metaopt_mex('bde-run', bq, struct('cpu', true, 'resume', bck))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'another problem')), 'bde-run: a checkpoint of other problems is refused');
delete(bck);
live0 = metaopt.liveInstances();
b = metaopt.BatchDE('F6', 4, -5.12, 5.12, 'members', 16, 'generations', 30, 'seed', 40, 'count', 3, 'cpu', true);
r3 = b.run();
b1 = metaopt.BatchDE('F6', 4, -5.12, 5.12, 'members', 16, 'generations', 30, 'seed', 42, 'cpu', true);
r1 = b1.run();
clear b1;
check(b.count() == 3 && r1.bestValue == r3.bestValue(3) && isequal(r1.best{1}, r3.best{3}), ...
      'metaopt.BatchDE: a scalar seed S gives problem i the seed S + i - 1, independent of the batch');
bi = b.info();
check(strcmp(bi.kind, 'batch DE') && bi.problems == 3 && isequal(bi.dims, [4; 4; 4]), 'metaopt.BatchDE: info');
live1 = metaopt.liveInstances();
check(live1.bde == live0.bde + 1, 'metaopt.BatchDE: one live instance (the second one went)');
clear b;
live2 = metaopt.liveInstances();
check(live2.bde == live0.bde, 'metaopt.BatchDE: freed when it goes');
bg = metaopt.BatchDE(struct('function', 'F1', 'dims', 5, 'lower', -5, 'upper', 5, 'generations', 1e9), struct('cpu', true));
rt = bg.run('timeLimit', 0.3);
rt2 = bg.run('timeLimit', 0.3);
check(strcmp(rt.stopReason{1}, 'time_limit') && rt.generations(1) > 0 && rt2.generations(1) > rt.generations(1) && ...
      rt2.bestValue(1) <= rt.bestValue(1), 'bde-run: a time limit, and a second run goes on');
check(strcmp(error_id(@() bg.run('cpu', true)), 'metaopt:badOption'), 'bde-run: creation options are refused on an instance');
delete(bg);
check(strcmp(error_id(@() metaopt_mex('bde-run', uint8(1:8))), 'metaopt:badHandle'), 'bde-run: a forged instance');
kq = metaopt_knapsack_generate('weak', 10);
check(strcmp(error_id(@() metaopt_mex('bde-run', kq)), 'metaopt:wrongKind'), 'bde-run: another kind of instance');
metaopt_free(kq);
check(strcmp(error_id(@() metaopt_mex('bde-run', struct('function', 'F1', 'dims', 2, 'lower', -1, 'upper', 1, 'colour', 3))), ...
             'metaopt:badOption') && ~isempty(strfind(LAST_MESSAGE, 'colour')), 'bde-run: an unknown field');
check(strcmp(error_id(@() metaopt_mex('bde-run', struct('function', 'F1', 'dims', 2, 'lower', NaN, 'upper', 1))), ...
             'metaopt:badArgument') && ~isempty(strfind(LAST_MESSAGE, 'problems(1).lower')), 'bde-run: NaN bounds named');
check(strcmp(error_id(@() metaopt_mex('bde-run', struct('function', {'F1', 'F1'}, 'dims', 2, 'lower', -1, 'upper', 1, ...
                                                        'cr', {0.5, 1.5}))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'problem 1')) && ~isempty(strfind(LAST_MESSAGE, 'cr')), 'bde-run: a bad CR names the problem');
check(strcmp(error_id(@() metaopt_mex('bde-run', struct('function', 'F1', 'lower', -1, 'upper', 1))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'dims')), 'bde-run: a missing dims');
check(strcmp(error_id(@() metaopt_mex('bde-run', 3)), 'metaopt:badArgument'), 'bde-run: problems must be a struct array');
check(strcmp(error_id(@() metaopt_mex('bde-run', bp, struct('placement', 'far'))), 'metaopt:badOption'), 'bde-run: a bad placement');
check(strcmp(error_id(@() metaopt.BatchDE('F1', [2 3], -1, 1, 'members', [10 20 30])), 'metaopt:badArgument'), ...
      'metaopt.BatchDE: per-problem lengths must agree');
% jDE100 problems: 'algorithm' per problem, members = big + jde_small, CPU == device
bj = struct('function', {'F6', 'F1'}, 'dims', {5, 4}, 'lower', -5.12, 'upper', 5.12, 'members', {30, 20}, ...
            'generations', {40, 30}, 'algorithm', {'jde100', 'de'}, 'jdeSmall', {10, []}, 'seed', {7, 8});
jc = metaopt_mex('bde-run', bj, struct('cpu', true));
jd = metaopt_mex('bde-run', bj, struct('precision', 'double', 'generationsPerLaunch', 8));
check(all(abs(jd.bestValue - jc.bestValue) <= 1e-9 * max(abs(jc.bestValue), 1e-300)) && isequal(jc.generations', [40 30]), ...
      'bde-run: jDE100 problems, the device equals the CPU backend in double');
check(abs(metaopt_evaluate('F6', jc.best{1}(:)') - jc.bestValue(1)) <= 1e-9 * max(1, jc.bestValue(1)), ...
      'bde-run: jDE100''s best ever is worth its value');
check(strcmp(error_id(@() metaopt_mex('bde-run', struct('function', 'F1', 'dims', 2, 'lower', -1, 'upper', 1, ...
                                                        'algorithm', 'jdee'))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'problems(1).algorithm')), 'bde-run: an unknown algorithm');
% JADE, SHADE, L-SHADE and jSO problems: the device equals the CPU backend in double
ba = struct('function', {'F6', 'F1', 'F5', 'F6'}, 'dims', {5, 4, 3, 4}, 'lower', -2.048, 'upper', 2.048, ...
            'members', {20, 12, 16, 24}, 'generations', 40, 'algorithm', {'jade', 'shade', 'lshade', 'jso'}, 'seed', 3);
ac = metaopt_mex('bde-run', ba, struct('cpu', true));
ad = metaopt_mex('bde-run', ba, struct('precision', 'double', 'generationsPerLaunch', 8));
check(all(abs(ad.bestValue - ac.bestValue) <= 1e-9 * max(abs(ac.bestValue), 1e-300)) && isequal(ac.generations', [40 40 40 40]), ...
      'bde-run: JADE, SHADE, L-SHADE, jSO problems, the device equals the CPU backend in double');
check(strcmp(error_id(@() metaopt_mex('bde-run', struct('function', 'F1', 'dims', 2, 'lower', -1, 'upper', 1, 'members', 20, ...
                                                        'algorithm', 'jde100', 'jde_small', 3))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'jde_small')), 'bde-run: a too small jDE100 population named');

% --- forged, edited, foreign and freed instances: clear errors, never a crash ---
q = metaopt_qap_params(2, int64(DF));
check(strcmp(error_id(@() metaopt_qap_run(uint8(zeros(1, 32)))), 'metaopt:badHandle'), 'zeros: no magic');
check(strcmp(error_id(@() metaopt_qap_run(uint8(randi(255, 1, 32)))), 'metaopt:badHandle'), 'random bytes');
check(strcmp(error_id(@() metaopt_qap_run(q(1:31))), 'metaopt:badHandle') && ...
      ~isempty(strfind(LAST_MESSAGE, '31 bytes')), 'wrong size');
check(strcmp(error_id(@() metaopt_qap_run(double(q))), 'metaopt:badHandle'), 'not uint8');
edited = q;
edited(13) = bitxor(edited(13), 1);  % the slot
check(strcmp(error_id(@() metaopt_qap_run(edited)), 'metaopt:badHandle') && ...
      ~isempty(strfind(LAST_MESSAGE, 'corrupted')), 'an edited instance');
check(strcmp(error_id(@() metaopt_qap_solve(h2)), 'metaopt:wrongKind') && ...
      ~isempty(strfind(LAST_MESSAGE, 'SAT')), 'a SAT instance given to solve');
check(strcmp(error_id(@() metaopt_sat_solve(q)), 'metaopt:wrongKind'), 'a QAP instance given to sat-solve');
check(strcmp(error_id(@() metaopt_mex('profiler-on', q)), 'metaopt:wrongKind'), 'a QAP instance given to profiler-on');
metaopt_free(q);
metaopt_free(h2);
check(strcmp(error_id(@() metaopt_qap_run(q)), 'metaopt:freedHandle') && ...
      ~isempty(strfind(LAST_MESSAGE, 'freed already')), 'a freed instance');
check(strcmp(error_id(@() metaopt_free(q)), 'metaopt:freedHandle'), 'a double free');
% an instance from before the MEX file was cleared (its instances are freed then)
old = metaopt_sat_from_clauses(2, {[1 2]});
clear metaopt_mex
check(strcmp(error_id(@() metaopt_sat_solve(old)), 'metaopt:freedHandle') && ...
      ~isempty(strfind(LAST_MESSAGE, 'not made by this session')), 'an instance from before clear metaopt_mex');
fresh = metaopt_sat_from_clauses(2, {[1 2]});
check(strcmp(error_id(@() metaopt_sat_solve(old)), 'metaopt:freedHandle'), 'an old instance never matches a new one');
metaopt_free(fresh);
check(strcmp(error_id(@() metaopt_mex('no-such-mode')), 'metaopt:unknownMode'), 'an unknown mode');
check(strcmp(error_id(@() metaopt_mex(42)), 'metaopt:usage'), 'a mode that is not a string');

% --- island DE (thesis 5.2.1, DEMultiPop) ---
fast = struct('F_coefs_min', 0.5, 'F_coefs_max', 0.9, 'CR', 0.9, 'double', true);
d = metaopt_mex('de-params', 8, 40, 10, [-5.12 5.12], 'COTN', fast);
check(isa(d, 'uint8') && numel(d) == 32, 'de-params returns a uint8 instance');
metaopt_mex('de-init', d, '@F1', 'DE/rand/1', 'PermuteN', 10);
[v, x, island, gens, evals, secs, why] = metaopt_mex('de-run', d, 600, 'target', 1e-6);
check(v < 1e-6 && strcmp(why, 'target') && gens <= 600 && secs >= 0, 'DE on the catalogue F1 in 10-D reaches 1e-6');
check(isequal(size(x), [1 10]) && abs(v - sum(x .^ 2)) < 1e-15 && island >= 1 && island <= 8, 'de-run: x and the 1-based island');
check(evals == 8 * 40 * (gens + 1), 'de-run: evaluations count the first populations and every generation');
txt = metaopt_info(d);
check(~isempty(strfind(txt, '8 populations x 40 members x 10 dimensions')) && ~isempty(strfind(txt, 'PermuteN')) && ...
      ~isempty(strfind(txt, 'F1')), 'info describes a DE instance');
metaopt_free(d);
% de-init with an options update (the thesis's optionsUpdate) runs as an instance made with them
upd = struct('F_coefs_mode', 'const', 'F_coefs_min', 0.6, 'CR', [0.2 0.9 0.5 0.7], 'init_rng_seed', 7, ...
             'mutation_rng_seed', 8, 'crossover_rng_seed', 9, 'migration_rng_seed', 10);
da = metaopt_de_params(4, 12, 10, [-100 100], 'mir');
metaopt_de_init(da, '@CEC05t');
metaopt_de_run(da, 40);
metaopt_de_init(da, '@CEC05t', 'DE/rand/1', 'PermuteN', 5, upd);
db = metaopt_de_params(4, 12, 10, [-100 100], 'mir', upd);
metaopt_de_init(db, '@CEC05t', 'DE/rand/1', 'PermuteN', 5);
[va, xa] = metaopt_de_run(da, 40);
[vb, xb] = metaopt_de_run(db, 40);
check(va == vb && isequal(xa, xb) && isequal(metaopt_de_bests(da), metaopt_de_bests(db)), ...
      'de-init opts: F, CR and the seeds as if made with them');
metaopt_de_init(da, '@CEC05t', 'DE/rand/1', 'PermuteN', 5, struct('F_coefs_min', 0.6));
[vc2, xc2] = metaopt_de_run(da, 40);
check(vc2 == va && isequal(xc2, xa), 'de-init opts: a later update keeps the other updated fields (per-island CR included)');
[~, ~, ~, ~, ~, ~, ~, pa] = metaopt_mex('de-run', da, 1);
other = {'single', 'double'};
other = other{1 + strcmp(pa, 'single')};
check(strcmp(error_id(@() metaopt_de_init(da, '@CEC05t', 'DE/rand/1', 'None', 5, struct('precision', other))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'double')), 'de-init opts: the precision is fixed');
check(strcmp(error_id(@() metaopt_de_init(da, '@CEC05t', 'DE/rand/1', 'None', 5, struct('double', strcmp(other, 'double')))), ...
      'metaopt:invalidArgument'), 'de-init opts: the precision is fixed (the earlier opts.double)');
check(strcmp(error_id(@() metaopt_de_init(da, '@CEC05t', 'DE/rand/1', 'None', 5, struct('colour', 1))), 'metaopt:badOption'), ...
      'de-init opts: an unknown field');
metaopt_free(da);
metaopt_free(db);
% an m-function objective (by name and as a handle) gives the catalogue's run; the trials come
% as one (islands * members) x dims matrix per generation
small = {4, 20, 5, [-5.12 5.12; -5.12 5.12; -5.12 5.12; -5.12 5.12; -5.12 5.12], 'sat', fast};
d = metaopt_de_params(small{:});
metaopt_de_init(d, '@F1', 'DE/best/1', 'One2N', 5);
[vc, xc, rc] = metaopt_de_run(d, 60);
bc = metaopt_de_bests(d);
metaopt_free(d);
dn = metaopt_de_params(small{:});
metaopt_de_init(dn, 'sphere_objective', 'DE/best/1', 'One2N', 5);
dh = metaopt_de_params(small{:});
metaopt_de_init(dh, @(X) sum(X .^ 2, 2), 'DE/best/1', 'One2N', 5);
others = cell(1, 40);  % the table of instances grows: the m-function instances must not move
for k = 1:numel(others)
  others{k} = metaopt_sat_from_clauses(2, {[1 2]});
end
[vn, xn, rn] = metaopt_de_run(dn, struct('generations', 60));
[vh, xh, rh] = metaopt_de_run(dh, 60);
bn = metaopt_de_bests(dn);
bh = metaopt_de_bests(dh);
check(strcmp(rc.stoppedBy, 'budget') && rn.generations == 60 && rh.generations == 60, 'the m-function runs ran 60 generations');
check(max(abs(bn - bc)) <= 1e-9 && max(abs(xn - xc)) <= 1e-9 && rn.island == rc.island, 'an m-function by name gives the catalogue run (bests to 1e-9)');
check(max(abs(bh - bc)) <= 1e-9 && max(abs(xh - xc)) <= 1e-9, 'a function handle gives the catalogue run (bests to 1e-9)');
check(~isempty(strfind(metaopt_info(dn), 'host callback')), 'info names the host callback');
for k = 1:numel(others)
  metaopt_free(others{k});
end
% bests, best and x agree, 1-based
bests = metaopt_de_bests(dh);
check(isequal(size(bests), [1 4]) && bests(rh.island) == vh && vh == min(bests), 'de-bests: the run value is the best island''s');
check(isequal(metaopt_de_best(dh, rh.island), xh), 'de-best of the run''s island is the run''s x');
ok = true;
for p = 1:4
  b = metaopt_de_best(dh, p);
  members = zeros(20, 5);
  for m = 1:20
    members(m, :) = metaopt_de_x(dh, p, m);
  end
  ok = ok && abs(sum(b .^ 2) - bests(p)) <= 1e-12 && any(all(members == b, 2)) && ...
       all(sum(members .^ 2, 2) >= bests(p) - 1e-12) && all(abs(members(:)) <= 5.12);
end
check(ok, 'de-best is a member of its island with the island''s best value; de-x within the limits');
check(strcmp(error_id(@() metaopt_de_best(dh, 5)), 'metaopt:badArgument') && ~isempty(strfind(LAST_MESSAGE, 'island')), 'de-best: island out of range');
check(strcmp(error_id(@() metaopt_de_best(dh, 0)), 'metaopt:badArgument'), 'de-best: islands are 1-based');
check(strcmp(error_id(@() metaopt_de_x(dh, 1, 21)), 'metaopt:badArgument') && ~isempty(strfind(LAST_MESSAGE, 'member')), 'de-x: member out of range');
% iteration, stop conditions, m-function errors
check(metaopt_de_iteration(dh) == 61 && metaopt_mex('de-iteration', dh) == 62, 'de-iteration counts the generations');
[~, ~, ~, g2, e2, ~, why2] = metaopt_mex('de-run', dh, [], 'evaluations', 400);
check(strcmp(why2, 'evaluations') && g2 == 67 && e2 == 80 * 68, 'de-run with an evaluation budget');
[~, ~, r3] = metaopt_de_run(dh, struct('time_limit', 0.05));
check(strcmp(r3.stoppedBy, 'time_limit') && r3.generations > 67, 'de-run with a time limit');
check(strcmp(error_id(@() metaopt_mex('de-run', dh)), 'metaopt:invalidArgument') && ~isempty(strfind(LAST_MESSAGE, 'stop')), 'de-run needs a stop condition');
check(strcmp(error_id(@() metaopt_mex('de-run', dh, 10, 'budget', 5)), 'metaopt:badOption'), 'an unknown stop condition');
global FLAKY_CALLS FLAKY_FAIL_AT
FLAKY_CALLS = 0;
FLAKY_FAIL_AT = 5;
metaopt_de_init(dh, 'flaky_objective');
check(strcmp(error_id(@() metaopt_de_run(dh, 10)), 'metaoptTest:flaky') && ~isempty(strfind(LAST_MESSAGE, 'call 5')), 'an m-function error in de-run is rethrown');
FLAKY_FAIL_AT = Inf;
[vf, ~, rf] = metaopt_de_run(dh, 2);
check(vf >= 0 && rf.generations == 5, 'the instance goes on after the error (3 generations before it, 2 after)');
check(strcmp(error_id(@() metaopt_de_init(dh, 'failing_objective')), 'metaoptTest:failing') && ...
      ~isempty(strfind(LAST_MESSAGE, 'called with 80 rows')), 'an m-function error in de-init is rethrown');
check(strcmp(error_id(@() metaopt_de_iteration(dh)), 'metaopt:invalidArgument') && ~isempty(strfind(LAST_MESSAGE, 'init')), ...
      'a failed first evaluation leaves no objective');
check(strcmp(error_id(@() metaopt_de_init(dh, @(X) NaN(size(X, 1), 1))), 'metaopt:objective') && ...
      ~isempty(strfind(LAST_MESSAGE, 'NaN for row 1')), 'a NaN objective value');
metaopt_de_init(dh, @(X) sum(abs(X), 2));
check(metaopt_de_iteration(dh) == 1, 'a good objective after failed ones');
metaopt_free(dn);
metaopt_free(dh);
% OpenCL C objectives (a struct of source and label, or a file) with func-data
code = ['FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n' ...
        '{ FP c = ((__global const FP *)data)[0]; FP s = 0;\n' ...
        '  for (uint j = 0; j < dims; ++j) { FP v = x[j * stride] - c; s += v * v; } return s; }\n'];
d = metaopt_de_params(4, 20, 4, [-5 5], 'mir', struct('F_coefs_min', 0.5, 'F_coefs_max', 0.8, 'CR', 0.9, 'double', 1));
metaopt_de_init(d, struct('source', sprintf(code), 'name', 'shifted sphere'));
metaopt_de_func_data(d, 1.5);
[vs, xs] = metaopt_de_run(d, 300);
check(vs < 1e-8 && all(abs(xs - 1.5) < 1e-3) && ~isempty(strfind(metaopt_info(d), 'shifted sphere')), 'an OpenCL C struct objective with func-data');
cl = [tempname() '.cl'];
fid = fopen(cl, 'w');
fprintf(fid, code);
fclose(fid);
metaopt_de_init(d, ['@' cl], 'DE/rand/1');
metaopt_mex('de-func-data', d, -2);
[vs, xs] = metaopt_de_run(d, 300);
check(vs < 1e-8 && all(abs(xs + 2) < 1e-3), 'an OpenCL C file objective with func-data');
delete(cl);
check(strcmp(error_id(@() metaopt_de_init(d, struct('source', 'FP objective(this does not compile'))), 'metaopt:kernelBuild'), 'a source that does not compile');
metaopt_free(d);
% per-island CR, per-dimension bounds, the CPU backend, const F
d = metaopt_de_params(4, 12, 3, [-2 2; -1 1; 0 3], {'sat', 'mir', 'HVB'}, ...
                      struct('CR', [0.9 0.8 0.7 0.6], 'F_coefs_mode', 'const', 'F_coefs_min', 0.6, 'cpu', true, 'double', true));
metaopt_de_init(d, '@F1', 'DE/current-to-best/1');
[vd, xd] = metaopt_de_run(d, 40);
txt = metaopt_info(d);
check(~isempty(strfind(txt, 'bounds: sat,mir,HVB')) && ~isempty(strfind(txt, 'CR 0.9 (per population)')) && ...
      ~isempty(strfind(txt, 'CPU backend')) && ~isempty(strfind(txt, 'F const 0.6')), 'de-params options reach the instance');
check(xd(1) >= -2 && xd(1) <= 2 && xd(2) >= -1 && xd(2) <= 1 && xd(3) >= 0 && xd(3) <= 3 && vd >= 0, 'per-dimension limits');
% a dithered F (scipy's mutation=(min, max)): the device and the CPU backend draw alike
o = struct('F_coefs_mode', 'dither', 'F_coefs_min', 0.5, 'F_coefs_max', 1, 'double', true);
dd = metaopt_de_params(4, 12, 3, [-2 2], 'sat', o);
o.cpu = true;
dc = metaopt_de_params(4, 12, 3, [-2 2], 'sat', o);
metaopt_de_init(dd, '@F1', 'DE/rand/1');
metaopt_de_init(dc, '@F1', 'DE/rand/1');
v1 = metaopt_de_run(dd, 30);
v2 = metaopt_de_run(dc, 30);
check(abs(v1 - v2) <= 1e-9 * max(abs(v1), 1e-3) && ~isempty(strfind(metaopt_info(dd), 'F dither 0.5..1')), ...
      'a dithered F on the device and the CPU backend');
metaopt_free(dd);
metaopt_free(dc);
% integer variables (scipy's integrality): every member integral, the limits the integers inside
di = metaopt_de_params(4, 12, 3, [-3.7 4.2], 'mir', struct('integrality', [true false true], 'cpu', true));
metaopt_de_init(di, '@F1', 'DE/rand/1');
[vi, xi] = metaopt_de_run(di, 60);
check(xi(1) == round(xi(1)) && xi(3) == round(xi(3)) && xi(1) >= -3 && xi(3) <= 4 && vi >= 0, 'integer dimensions');
check(strcmp(error_id(@() metaopt_de_init(di, '@F1', 'DE/rand/1', 'None', 10, struct('integrality', true))), ...
             'metaopt:badOption'), 'integrality is fixed with the instance');
metaopt_free(di);
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [0.2 0.8], 'sat', struct('integrality', true))), ...
             'metaopt:invalidArgument') && ~isempty(strfind(LAST_MESSAGE, 'integrality')), 'limits without an integer');
% constraints of a source: min |x|^2 subject to x0 + x1 >= 1 (g = 1 - x0 - x1 <= 0) gives
% (0.5, 0.5), f = 0.5, feasible, on the device and the CPU backend; Deb's rules and the epsilon level
csrc = struct('source', ['FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)' ...
                         ' { return x[0] * x[0] + x[stride] * x[stride]; }' char(10) ...
                         'void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)' ...
                         ' { c[0] = (FP)1 - x[0] - x[stride]; }']);
for cpu = [false true]
  for rule = {'deb', [0.2 100 5]}
    dk = metaopt_de_params(4, 20, 2, [-2 2], 'sat', struct('cpu', cpu, 'precision', 'double', 'CR', 0.9, ...
                                                         'F_coefs_min', 0.5, 'F_coefs_max', 0.9));
    metaopt_de_init(dk, csrc, 'DE/rand/1', 'PermuteN', 10, struct('constraints', [1 0], 'constraintHandling', rule{1}));
    [vk, xk, rk] = metaopt_de_run(dk, 600);
    check(abs(vk - 0.5) < 1e-6 && rk.violation == 0 && sum(xk) >= 1 - 1e-12, 'a constrained source');
    metaopt_free(dk);
  end
end
dk = metaopt_de_params(4, 20, 2, [-2 2], 'sat', struct('cpu', true));
check(strcmp(error_id(@() metaopt_de_init(dk, '@F1', 'DE/rand/1', 'None', 10, struct('constraints', [1 0]))), ...
             'metaopt:invalidArgument') && ~isempty(strfind(LAST_MESSAGE, 'constraints')), 'a catalogue function has no constraints');
check(strcmp(error_id(@() metaopt_de_init(dk, @sphere_objective, 'DE/rand/1', 'None', 10, struct('constraints', [1 0]))), ...
             'metaopt:badOption'), 'an m-function computes no constraint values');
check(strcmp(error_id(@() metaopt_de_init(dk, csrc, 'DE/rand/1', 'None', 10, struct('constraints', [1 0], 'constraintHandling', 'greedy'))), ...
             'metaopt:badOption'), 'an unknown constraint handling');
check(strcmp(error_id(@() metaopt_de_init(dk, csrc, 'DE/rand/1', 'None', 10, struct('eqTol', 1e-3))), ...
             'metaopt:badOption'), 'eqTol without constraints');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 2, [-1 1], 'sat', struct('constraints', [1 0]))), ...
             'metaopt:badOption'), 'constraints are options of de-init');
metaopt_free(dk);
% errors: library errors naming the argument, gateway errors for shapes
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [-1 1], 'bounce')), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'bounds')), 'an unknown bound correction');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [-1 1], {'sat', 'mir'})), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'bounds')), 'too few bound corrections');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [1 1])), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'limits')), 'a >= b');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [0 1; 0 1])), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'limits must be')), 'limits of the wrong shape');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [-1 1], 'sat', struct('CR', [0.5 0.5]))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.cr (CR)')), 'CR of the wrong length');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [-1 1], 'sat', struct('CR', 2))), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'cr')), 'CR out of [0, 1]');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [-1 1], 'sat', struct('F_min', 0.2))), 'metaopt:badOption') && ...
      ~isempty(strfind(LAST_MESSAGE, 'F_min')), 'an unknown option field');
check(strcmp(error_id(@() metaopt_de_params(4, 10, 3, [-1 1], 'sat', struct('F_coefs_mode', 'random'))), 'metaopt:badArgument'), 'an unknown F mode');
e5 = metaopt_de_params(4, 5, 3, [-1 1], 'sat');
check(strcmp(error_id(@() metaopt_de_iteration(e5)), 'metaopt:invalidArgument'), 'de-iteration before de-init');
check(strcmp(error_id(@() metaopt_de_init(e5, '@F1', 'DE/rand/9')), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'mutation')), 'an unknown mutation');
check(strcmp(error_id(@() metaopt_de_init(e5, '@F1', 'DE/rand/2')), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'members')), 'too few members for DE/rand/2');
check(strcmp(error_id(@() metaopt_de_init(e5, '@F1', 'DE/rand/1', 'Ring', 5)), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'migration')), 'an unknown migration');
check(strcmp(error_id(@() metaopt_de_init(e5, '@NoSuchFunction')), 'metaopt:invalidArgument'), 'an unknown catalogue function');
check(strcmp(error_id(@() metaopt_de_init(e5, 42)), 'metaopt:badArgument') && ~isempty(strfind(LAST_MESSAGE, 'objective')), 'an objective that is a number');
% forged, edited, freed and wrong-kind instances
check(strcmp(error_id(@() metaopt_mex('de-run', uint8(zeros(1, 32)), 1)), 'metaopt:badHandle'), 'a forged DE instance');
edited = d;
edited(13) = bitxor(edited(13), 1);
check(strcmp(error_id(@() metaopt_mex('de-bests', edited)), 'metaopt:badHandle') && ~isempty(strfind(LAST_MESSAGE, 'corrupted')), 'an edited DE instance');
q = metaopt_qap_params(2, int64(DF));
check(strcmp(error_id(@() metaopt_mex('de-run', q, 10)), 'metaopt:wrongKind') && ~isempty(strfind(LAST_MESSAGE, 'QAP')), 'a QAP instance given to de-run');
check(strcmp(error_id(@() metaopt_mex('run', d, [], [])), 'metaopt:wrongKind') && ~isempty(strfind(LAST_MESSAGE, 'de-run')), 'a DE instance given to run');
check(strcmp(error_id(@() metaopt_sat_solve(d)), 'metaopt:wrongKind'), 'a DE instance given to sat-solve');
metaopt_free(q);
metaopt_free(e5);
metaopt_free(d);
check(strcmp(error_id(@() metaopt_de_run(d, 1)), 'metaopt:freedHandle') && ~isempty(strfind(LAST_MESSAGE, 'freed already')), 'a freed DE instance');
check(strcmp(error_id(@() metaopt_free(d)), 'metaopt:freedHandle'), 'a double free of a DE instance');

% --- sparse arrays are refused wherever numbers are read (they are no plain element arrays) ---
DF3 = [0 1 2; 1 0 3; 2 3 0];
g = metaopt_hc12_params(3, 8, [-1 1]);
s3 = metaopt_sat_from_clauses(3, {[1 2], [-1 3]});
d = metaopt_de_params(2, 4, 3, [-1 1], 'sat');
metaopt_de_init(d, '@F1');
sparse_calls = {{'params', 2, 3000, [], sparse(3000, 3000)}, 'DF'; {'params', 2, 3, [], sparse(DF3)}, 'DF'; ...
                {'params', 3, 8, sparse([-1 1])}, 'dodParam'; {'params', 3, sparse(8), [-1 1]}, 'nBitParam'; ...
                {'params', 3, 8, [-1 1], sparse(2)}, 'maskOrder'; {'set-device', sparse(0)}, 'deviceNumber'; ...
                {'sat-evaluate', s3, sparse([1 0 1])}, 'assignments'; {'sat-clauses', 3, {sparse([1 2])}}, 'clauses{1}'; ...
                {'de-params', 2, 4, 3, sparse([-1 1]), 'sat'}, 'limits'; {'de-func-data', d, sparse(1)}, 'data'; ...
                {'func-data', g, '@x.cl', sparse(1)}, 'data'; {'run', g, 'GC', 1, sparse([0 0 0]), '@F1', 'min'}, 'startSeed'};
for k = 1:rows(sparse_calls)
  check(strcmp(error_id(@() metaopt_mex(sparse_calls{k, 1}{:})), 'metaopt:badArgument') && ...
        ~isempty(strfind(LAST_MESSAGE, [sparse_calls{k, 2} ' must be'])) && ~isempty(strfind(LAST_MESSAGE, 'sparse')), ...
        sprintf('a sparse %s is refused (%s)', sparse_calls{k, 2}, sparse_calls{k, 1}{1}));
end
% an objective's values must be real
bad_values = {@(X) complex(sum(X .^ 2, 2), 1), 'complex'; @(X) num2cell(sum(X .^ 2, 2)), 'cell'; ...
              @(X) sparse(sum(X .^ 2, 2)), 'sparse'};
for k = 1:rows(bad_values)
  check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], bad_values{k, 1}, 'min')), 'metaopt:objective') && ...
        ~isempty(strfind(LAST_MESSAGE, 'must return 301 real values')) && ~isempty(strfind(LAST_MESSAGE, bad_values{k, 2})), ...
        ['an objective returning ' bad_values{k, 2} ' values']);
end

% --- 'params': the QAP form names DF; a call that fits neither form names both ---
check(strcmp(error_id(@() metaopt_mex('params', 2, 3, [], {1})), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'DF must be')) && isempty(strfind(LAST_MESSAGE, 'dodParam must')), 'params: a cell DF is named DF');
check(strcmp(error_id(@() metaopt_mex('params', 2, 3, [], struct('a', 1))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'DF must be')), 'params: a struct DF is named DF');
check(strcmp(error_id(@() metaopt_mex('params', 2, 3, [], 5)), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'DF (the 4th argument of the QAP form)')) && ~isempty(strfind(LAST_MESSAGE, 'dodParam')), ...
      'params: a scalar DF names both forms');
check(strcmp(error_id(@() metaopt_hc12_params(3, 8, 5)), 'metaopt:badArgument') && ~isempty(strfind(LAST_MESSAGE, 'dodParam')), ...
      'params: a scalar dodParam names dodParam');
check(strcmp(error_id(@() metaopt_mex('params', 3, 8, [-1 1], 2, 0, 0, 1)), 'metaopt:tooManyArguments') && ...
      ~isempty(strfind(LAST_MESSAGE, 'HC12')), 'params: HC12 with a trailing argument');

% --- modes: outputs, trailing arguments, options fields, NUL characters ---
q = metaopt_qap_params(2, int64(DF3));
check(strcmp(error_id(@() output_of('free', q)), 'metaopt:badArgument') && ~isempty(strfind(LAST_MESSAGE, 'returns nothing')) && ...
      metaopt_info(q).nElements == 3, 'x = metaopt_mex(''free'', h) is refused before it frees');
check(strcmp(error_id(@() output_of('set-tabu-list', q, 5)), 'metaopt:badArgument'), 'set-tabu-list returns nothing');
trailing = {{'info', q, 1}, {'free', q, 1}, {'get-device', 1}, {'sat-solve', s3, struct(), 1}, {'sat-evaluate', s3, [1 0 1], 0, 1}, ...
            {'sat-clauses', 3, {[1 2]}, 1}, {'solve', q, struct('runs', 1), 1}, {'params-file', fullfile(data, 'nug12.dat'), 4, 2, 0, 0, 1}, ...
            {'set-tabu-list', q, 5, 1}, {'func-data', g, '@x.cl', single(1), 1}, {'de-bests', d, 1}};
for k = 1:numel(trailing)
  check(strcmp(error_id(@() metaopt_mex(trailing{k}{:})), 'metaopt:tooManyArguments'), ['a trailing argument to ' trailing{k}{1}]);
end
check(metaopt_info(q).nElements == 3, 'the instance is live after the refused calls');
check(strcmp(error_id(@() metaopt_qap_solve(q, struct('run', 3))), 'metaopt:badOption') && ~isempty(strfind(LAST_MESSAGE, 'opts.run ')), ...
      'solve: an unknown opts field');
check(strcmp(error_id(@() metaopt_sat_solve(s3, struct('timelimit', 1))), 'metaopt:badOption') && ...
      ~isempty(strfind(LAST_MESSAGE, 'timelimit')), 'sat-solve: an unknown opts field');
check(strcmp(error_id(@() metaopt_mex(['info' char(0) 'x'], q)), 'metaopt:usage') && ~isempty(strfind(LAST_MESSAGE, 'NUL')), ...
      'a mode string with a NUL character');
check(strcmp(error_id(@() metaopt_mex('sat-parse', [fullfile(satlib, 'x.cnf') char(0) 'y'])), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'NUL')), 'a path with a NUL character');
% solve with no run limit needs a time limit; a target must be finite
check(strcmp(error_id(@() metaopt_qap_solve(q, struct('runs', 0, 'target', -Inf))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.runs')) && ~isempty(strfind(LAST_MESSAGE, 'opts.timeLimit')), 'solve: runs = 0 without a time limit');
check(strcmp(error_id(@() metaopt_qap_solve(q, struct('runs', 1, 'target', Inf))), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'opts.target')), 'solve: an infinite target');
r0 = metaopt_qap_solve(q, struct('runs', 0, 'timeLimit', 0.1));
check(r0.runs >= 1 && r0.cost == qap_cost(DF3, DF3, r0.permutation), 'solve: runs = 0 with a time limit');
% a handle whose kind was changed (and its check word fixed) is forged
check(strcmp(error_id(@() metaopt_info(with_kind(g, 1))), 'metaopt:badHandle') && ~isempty(strfind(LAST_MESSAGE, 'forged')), ...
      'an HC12 instance made to say QAP');
check(strcmp(error_id(@() metaopt_free(with_kind(s3, 4))), 'metaopt:badHandle') && metaopt_info(s3).numVars == 3, ...
      'a SAT instance made to say DE is not freed');

% --- general HC12: tabu lengths checked before they are kept; per-run objective calls ---
metaopt_mex('profiler-on', g);
metaopt_mex('set-tabu-list', g, 30);
check(strcmp(error_id(@() metaopt_mex('set-tabu-list', g, 20000000)), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'maxLength')), 'set-tabu-list: a length over 2^24');
check(strcmp(error_id(@() metaopt_mex('run:taboo', g, 'GC', 1, [], '@F1', 'min', [], 20000000)), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'limitRows')), 'run:taboo: limitRows over 2^24');
[v1, ~, r1] = metaopt_mex('run', g, 'GC', 2, [], @(X) sum(X .^ 2, 2), 'min');
[v2, ~, r2] = metaopt_mex('run', g, 'GC', 2, [], @(X) sum(X .^ 2, 2), 'min');
txt = metaopt_info(g);
check(~isempty(strfind(txt, 'tabu list: 30 strings')) && ~isempty(strfind(txt, 'profiler: on')), ...
      'the refused lengths changed nothing: the instance has the settings given before');
check(v1 == v2 && r1.objectiveCalls == r2.objectiveCalls && r1.objectiveCalls >= sum(r1.runIterations), ...
      'objectiveCalls counts the calls of one run');

% --- re-entry: an objective may call metaopt_mex, but not on the instance whose call runs ---
global REENTRANT_CALLS
other = metaopt_hc12_params(2, 8, [-1 1]);
own = {{{'free', g}}, 'free'; {{'run', g, 'GC', 1, [], @(X) sum(X .^ 2, 2), 'min'}}, 'run'; {{'info', g}}, 'info'; ...
       {{'set-tabu-list', g, 5}}, 'set-tabu-list'};
for k = 1:rows(own)
  REENTRANT_CALLS = own{k, 1};
  check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], 'reentrant_objective', 'min')), 'metaopt:busy') && ...
        ~isempty(strfind(LAST_MESSAGE, 'still running')), ['an objective calling ' own{k, 2} ' on its own HC12 instance']);
end
% another instance is usable, and the mode of the running call stays its own
REENTRANT_CALLS = {{'run', other, 'GC', 1, [], @(X) sum(X .^ 2, 2), 'min'}, {'info', other}, {'free', g}};
check(strcmp(error_id(@() metaopt_mex('run', g, 'GC', 1, [], 'reentrant_objective', 'min')), 'metaopt:busy') && ...
      ~isempty(strfind(LAST_MESSAGE, 'the call ''run''')), 'an objective using another instance, then its own');
REENTRANT_CALLS = 'clear metaopt_mex';
[vr, xr] = metaopt_mex('run', g, 'GC', 1, [], 'reentrant_objective', 'min');
check(vr < 1e-3 && ~isempty(strfind(metaopt_info(g), 'tabu list: 30 strings')), 'clear metaopt_mex in an objective frees nothing');
[v3, ~, r3] = metaopt_mex('run', g, 'GC', 2, [], @(X) sum(X .^ 2, 2), 'min');
check(v3 == v1 && r3.objectiveCalls == r1.objectiveCalls, 'the HC12 instance runs as before after the refused calls');
metaopt_de_init(d, 'reentrant_objective');
own_de = {{{'de-init', d, @(X) sum(X .^ 2, 2)}}, 'de-init'; {{'free', d}}, 'free'; {{'de-run', d, 1}}, 'de-run'; ...
          {{'de-bests', d}}, 'de-bests'};
for k = 1:rows(own_de)
  REENTRANT_CALLS = own_de{k, 1};
  check(strcmp(error_id(@() metaopt_de_run(d, 3)), 'metaopt:busy') && ~isempty(strfind(LAST_MESSAGE, 'de-run')), ...
        ['an objective calling ' own_de{k, 2} ' on its own DE instance']);
end
REENTRANT_CALLS = {};
[vd, ~, rd] = metaopt_de_run(d, 3);
check(vd >= 0 && rd.generations >= 3 && numel(metaopt_de_bests(d)) == 2, 'the DE instance keeps its objective and runs on');
metaopt_free(other);
metaopt_free(g);
metaopt_free(q);
metaopt_free(s3);
metaopt_free(d);

% --- the classes of +metaopt: they free their instances themselves (delete) ---
metaopt_mex('live');  % loads the MEX file again after the clear above
n0 = live_total();
q = metaopt.QAP(int64(DF3), 'swaps', 2);
check(live_total() == n0 + 1 && metaopt_mex('live').qap >= 1, 'metaopt.QAP holds one live instance');
q2 = q;
clear q
check(live_total() == n0 + 1 && q2.N == 3, 'a second reference keeps it');
clear q2
check(live_total() == n0, 'clearing the last reference frees it (Octave calls delete)');
[inside, ok] = made_in_a_function(DF3);
check(inside == n0 + 1 && ok && live_total() == n0, 'an object made in a function is freed when it returns');
h = metaopt.HC12(2, 8, [-1 1]);
h = metaopt.HC12(3, 8, [-1 1]);
check(live_total() == n0 + 1 && h.NParam == 3, 'reassignment frees the object replaced');
box = struct('s', metaopt.SAT(3, {[1 2]}), 'd', {{metaopt.DE(2, 5, 2, [-1 1])}});
check(live_total() == n0 + 3, 'objects in a struct and a cell');
clear box
check(live_total() == n0 + 1, 'clearing the struct frees the objects in it');
delete(h);
check(live_total() == n0 && strcmp(error_id(@() h.run('@F1')), 'metaopt:freedHandle') && ~h.isLive(), ...
      'delete frees at once; a deleted object is metaopt:freedHandle');
delete(h);
clear h
check(live_total() == n0, 'delete twice, then clear: nothing more happens');
s = metaopt.SAT(2, {[1 2]});
clear metaopt_mex
check(strcmp(error_id(@() delete(s)), '') && ~s.isLive(), 'delete after clear metaopt_mex (which freed the instance) raises nothing');
clear s
n0 = live_total();

% --- [x, fval, info]: the result order of the classes ---
q = metaopt.QAP(fullfile(data, 'had12.dat'), 'swaps', 12);
check(q.N == 12 && q.Swaps == 12 && strcmp(q.ElementType, 'int64'), 'metaopt.QAP from a file');
[x, fval, info] = q.solve('runs', 0, 'timeLimit', 60, 'target', 1652, 'seed', 5);
check(isequal(sort(x), 1:12) && fval == qap_cost(A, B, x) && fval == 1652 && strcmp(info.stopReason, 'target') && ...
      info.runs >= 1 && info.evaluations > 0 && info.seconds >= 0 && strcmp(info.precision, 'int64') && ...
      ~isfield(info, 'cost') && ~isfield(info, 'permutation'), 'QAP.solve: [x, fval, info]');
[x, fval, info] = q.solve('runs', 2, 'seed', 5);
check(strcmp(info.stopReason, 'budget') && info.runs == 2 && fval == qap_cost(A, B, x), 'QAP.solve: stopped by its runs (budget)');
[x, fval, info] = q.tabuSearch('chains', 4, 'time_limit', 60, 'target', 1652, 'cpu', true);
check(fval == 1652 && qap_cost(A, B, x) == 1652 && strcmp(info.stopReason, 'target') && info.chains == 4, 'QAP.tabuSearch: [x, fval, info]');
[x, fval, info] = q.run();
[x2, fval2, info2] = q.run(1:12, info.kernel);
check(fval == qap_cost(A, B, x) && isequal(x2, x) && fval2 == fval && info2.iterations == 1, 'QAP.run: [x, fval, info] and info.kernel continues');
qs = metaopt.QAP(single(DF), struct('swaps', 4));
[xs, fs, is] = qs.run();
check(strcmp(is.precision, 'single') && abs(fs - qap_cost(A, B, xs)) < 1e-3, 'QAP from a single DF says single');
clear q qs
h = metaopt.HC12(5, 16, [-5.12 5.12]);
[x, fval, info] = h.run(@(R) sum(R .^ 2, 2), 'runs', 2, 'seed', 3);
g = metaopt_hc12_params(5, 16, [-5.12 5.12], ['real,' info.precision]);
[v_old, x_old, r_old] = metaopt_hc12_run(g, @(R) sum(R .^ 2, 2), struct('runs', 2, 'seed', 3));
metaopt_free(g);
check(isequal(size(x), [1 5]) && isscalar(fval) && fval == v_old && isequal(x, x_old) && info.runs == 2 && ...
      strcmp(info.stopReason, 'budget') && info.evaluations == r_old.evaluations && ~isfield(info, 'value'), ...
      'HC12.run: [x, fval, info], the run of the compatibility wrapper [value, x, result]');
hi = metaopt.HC12(3, 8, [0 1], 'domain', 'integer');
[xi, fi] = hi.run(@(I) sum(abs(I - 5), 2), 'runs', 3, 'coding', 'BC');
check(fi == 0 && isequal(xi, [5 5 5]), 'HC12 with domain integer');
check(strcmp(error_id(@() hi.run('@F1', 'colour', 1)), 'metaopt:badOption'), 'HC12.run: an unknown option');
clear hi
d = metaopt.DE(4, 20, 5, [-5.12 5.12], 'fCoefsMin', 0.5, 'fCoefsMax', 0.9, 'cr', 0.9, 'bounds', 'sat');
d.init('@F1', 'mutation', 'DE/best/1', 'migration', 'One2N', 'period', 5);
[x, fval, info] = d.run(60);
check(isequal(size(x), [1 5]) && abs(fval - sum(x .^ 2)) < 1e-12 && strcmp(info.stopReason, 'budget') && ...
      info.generations == 60 && fval == min(d.bests()) && isequal(d.best(info.island), x), 'DE.run: [x, fval, info]');
[~, ~, info] = d.run('maxEvaluations', 100);
check(strcmp(info.stopReason, 'evaluations'), 'DE.run: stopped by maxEvaluations (evaluations)');
[~, ~, info] = d.run('time_limit', 0.05);
check(strcmp(info.stopReason, 'time_limit'), 'DE.run: stopped by timeLimit (time_limit)');
check(d.iterate() == info.generations + 1 && isequal(size(d.member(1, 1)), [1 5]), 'DE.iterate and DE.member');
% checkpoints: a run saved after 15 generations and resumed ends as the one that never stopped
ck = [tempname() '.state'];
shade = {'cpu', true, 'precision', 'double', 'algorithm', 'shade', 'initRngSeed', 4};
dw = metaopt.DE(3, 12, 4, [-5 5], shade{:});
dw.init('@F8');
[xw, fw, iw] = dw.run(40);
d1 = metaopt.DE(3, 12, 4, [-5 5], shade{:});
d1.init('@F8');
d1.run('maxGenerations', 15, 'checkpoint', ck, 'checkpointEvery', 0.001);
d2 = metaopt.DE(3, 12, 4, [-5 5], shade{:});
d2.init('@F8');
[x2, f2, i2] = d2.run('maxGenerations', 40, 'resume', ck);
check(f2 == fw && isequal(x2, xw) && i2.generations == 40 && i2.evaluations == iw.evaluations, ...
      'DE.run: resumed from a checkpoint, the uninterrupted run');
d3 = metaopt.DE(3, 12, 4, [-5 5], shade{1:end - 1}, 5);
d3.init('@F8');
check(strcmp(error_id(@() d3.run('maxGenerations', 40, 'resume', ck)), 'metaopt:invalidArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'option seeds')), 'DE.run: a checkpoint of other seeds is refused');
delete(ck);
% warm starts: opts.x0 the first member, opts.init the population
dx = metaopt.DE(2, 8, 3, [-5 5], 'cpu', true, 'precision', 'double');
dx.init('@F1', 'x0', [0 0 0]);
[~, fx0] = dx.run(1);
check(fx0 == 0 && isequal(dx.member(1, 1), [0 0 0]), 'DE.init: x0 joins the population');
dx.init('@F1', 'init', repmat([1 2 3], 16, 1));
check(isequal(dx.member(2, 8), [1 2 3]), 'DE.init: init is the population');
check(strcmp(error_id(@() dx.init('@F1', 'x0', [9 0 0])), 'metaopt:invalidArgument'), 'DE.init: x0 outside the limits');
check(strcmp(error_id(@() dx.init('@F1', 'x0', [0 0])), 'metaopt:badArgument'), 'DE.init: x0 of the wrong size');
check(strcmp(error_id(@() metaopt.DE(2, 8, 3, [-5 5], 'x0', [0 0 0])), 'metaopt:badOption'), 'DE: x0 is an option of init');
clear dw d1 d2 d3 dx
s = metaopt.SAT(fullfile(satlib, 'uf20-91', 'uf20-01.cnf'));
[x, fval, info] = s.solve('timeLimit', 60);
check(islogical(x) && numel(x) == 20 && fval == 0 && info.satisfiable && strcmp(info.stopReason, 'target') && ...
      unsatisfied(read_cnf(fullfile(satlib, 'uf20-91', 'uf20-01.cnf')), x) == 0 && s.evaluate(x) == s.NumClauses, ...
      'SAT.solve: [x, fval, info]');
clear d s h

% --- option names: lowerCamelCase, the thesis's and snake_case names aliases (one table) ---
o = metaopt.options('time_limit', 1, 'F_coefs_min', 0.2, 'CR', 0.5, 'init_rng_seed', 3, 'generations', 5, 'maxIterations', 9);
check(isequal(sort(fieldnames(o))', sort({'timeLimit', 'fCoefsMin', 'cr', 'initRngSeed', 'maxGenerations', 'maxIterations'})) && ...
      o.timeLimit == 1 && o.cr == 0.5, 'metaopt.options maps the aliases');
check(isequal(fieldnames(metaopt.options(struct('max_no_improve', 3, 'F_coefs_mode', 'const'))), {'noImprove'; 'fCoefsMode'}), ...
      'metaopt.options of a struct');
check(strcmp(error_id(@() metaopt.options('timeLimit', 1, 'time_limit', 2)), 'metaopt:badOption'), 'two names of one option (name/value)');
q = metaopt_qap_params(2, int64(DF3));
check(strcmp(error_id(@() metaopt_mex('solve', q, struct('timeLimit', 1, 'time_limit', 2))), ...
      'metaopt:badOption') && ~isempty(strfind(LAST_MESSAGE, 'same option')), 'two names of one option (opts struct)');
thesis = struct('F_coefs_mode', 'const', 'F_coefs_min', 0.6, 'CR', 0.8, 'init_rng_seed', 7, 'mutation_rng_seed', 8, ...
                'crossover_rng_seed', 9, 'migration_rng_seed', 10, 'shared_random', false);
camel = struct('fCoefsMode', 'const', 'fCoefsMin', 0.6, 'cr', 0.8, 'initRngSeed', 7, 'mutationRngSeed', 8, ...
               'crossoverRngSeed', 9, 'migrationRngSeed', 10, 'sharedRandom', false);
da = metaopt.DE(4, 12, 4, [-3 3], thesis);
db = metaopt.DE(4, 12, 4, [-3 3], camel);
da.init('@F1');
db.init('@F1');
[xa, fa] = da.run(struct('generations', 30));
[xb, fb] = db.run('maxGenerations', 30);
check(fa == fb && isequal(xa, xb), 'DE: the thesis''s names and the lowerCamelCase ones give the same run');
clear da db
% const_min, CR_coefs_mode and CR_coef_const (the thesis's Table 3 names)
dc = metaopt.DE(4, 12, 4, [-3 3], struct('F_coefs_mode', 'const_min', 'F_coefs_min', 0.6, 'CR_coefs_mode', 'const', ...
                'CR_coef_const', 0.8, 'init_rng_seed', 7, 'mutation_rng_seed', 8, 'crossover_rng_seed', 9, ...
                'migration_rng_seed', 10));
dc.init('@F1');
[xc, fc] = dc.run(struct('generations', 30));
check(fc == fa && isequal(xc, xa), 'DE: const_min, CR_coefs_mode const and CR_coef_const give the run of const and CR');
check(strcmp(error_id(@() metaopt.DE(2, 6, 2, [-1 1], 'CR_coefs_mode', 'linspace')), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'CR_coefs_mode')), 'DE: CR_coefs_mode other than const is refused');
check(strcmp(error_id(@() metaopt.DE(2, 6, 2, [-1 1], 'CR_coef_const', 0.5, 'CR', 0.5)), 'metaopt:badOption'), ...
      'DE: CR_coef_const and CR name one option');
% printBests: every island's best and the best solution (output captured)
txt = evalc('dc.printBests()');
bests = dc.bests();
[bv, bp] = min(bests);
lines = strsplit(strtrim(txt), "\n");
check(numel(lines) == 2 && strcmp(lines{1}, ['population bests:' sprintf(' %g', bests)]) && ...
      strcmp(lines{2}, sprintf('best: %g in population %d at%s', bv, bp, sprintf(' %g', dc.best(bp)))), ...
      'DE: printBests prints the island bests and the best solution');
txt2 = evalc('metaopt_de_print_bests(dc.token())');
check(strcmp(txt, txt2), 'metaopt_de_print_bests prints what printBests prints');
clear dc
% selection: ties (<=, the default) and strict (<, the thesis's) on a plateau (a step function)
step = struct('source', ['FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {' ...
              ' FP s = 0; for (uint j = 0; j < dims; ++j) s += floor(fabs(x[j * stride])); return s; }'], 'name', 'step');
moved = zeros(1, 2);
rules = {'ties', 'strict'};
for k = 1:2
  ds = metaopt.DE(2, 10, 3, [-4 4], 'selection', rules{k}, 'bounds', 'sat', 'cr', 0.9, 'fCoefsMin', 0.3, 'fCoefsMax', 0.9);
  ds.init(step);
  for g = 1:10
    before = zeros(20, 3);
    for i = 1:20, before(i, :) = ds.member(ceil(i / 10), mod(i - 1, 10) + 1); end
    fb = ds.bests();
    ds.iterate();
    for i = 1:20
      if ~isequal(ds.member(ceil(i / 10), mod(i - 1, 10) + 1), before(i, :)), moved(k) = moved(k) + 1; end
    end
    check(all(ds.bests() <= fb), ['DE selection ' rules{k} ': the island bests never rise']);
  end
  clear ds
end
check(moved(1) > moved(2), sprintf('DE: ties moves more members across the plateau than strict (%d vs %d)', moved(1), moved(2)));
check(strcmp(error_id(@() metaopt.DE(2, 6, 2, [-1 1], 'selection', 'loose')), 'metaopt:badArgument'), 'DE: an unknown selection');
% the fitness precision (the thesis's FPf of DEMultiPop<FP, FPf>): double storage, single fitness
vals = cell(1, 2);
for cpu = 0:1
  df = metaopt.DE(4, 12, 4, [-3 3], 'precision', 'double', 'fitnessPrecision', 'single', 'cpu', cpu == 1, ...
                  'selection', 'strict', 'sharedRandom', true, 'fCoefsMin', 0.5, 'fCoefsMax', 0.9, 'cr', 0.9);
  df.init('@F1');
  [~, fv, inf2] = df.run(20);
  check(strcmp(inf2.precision, 'double') && strcmp(inf2.fitnessPrecision, 'single'), ...
        'DE: run reports the storage and the fitness precision');
  vals{cpu + 1} = df.bests();
  check(all(double(single(vals{cpu + 1})) == vals{cpu + 1}) && double(single(fv)) == fv, ...
        'DE fitnessPrecision single: the values are floats');
  clear df
end
check(isequal(vals{1}, vals{2}), 'DE fitnessPrecision single: the device equals the CPU backend');
hf = metaopt_de_params(2, 6, 2, [-1 1], 'sat', struct('fitness_precision', 'double', 'precision', 'single'));
metaopt_de_init(hf, '@F1');
[~, ~, ~, ~, ~, ~, ~, p1, p2] = metaopt_mex('de-run', hf, 2);
check(strcmp(p1, 'single') && strcmp(p2, 'double'), 'metaopt_de_params: fitness_precision is fitnessPrecision');
metaopt_free(hf);
check(strcmp(error_id(@() metaopt.DE(2, 6, 2, [-1 1], 'fitnessPrecision', 'half')), 'metaopt:badArgument') && ...
      ~isempty(strfind(LAST_MESSAGE, 'fitnessPrecision')), 'DE: a bad fitnessPrecision is named');
g = metaopt_hc12_params(3, 8, [-1 1]);
[v1, x1] = metaopt_hc12_run(g, '@F1', struct('seed', 4, 'max_iterations', 3));
[v2, x2] = metaopt_hc12_run(g, '@F1', struct('seed', 4, 'maxIterations', 3));
check(v1 == v2 && isequal(x1, x2), 'metaopt_hc12_run: max_iterations is maxIterations');
[~, ~, r1] = metaopt_mex('run', g, 'GC', 1, [], '@F1', 'min', 'max_iterations', 2);
check(r1.iterations <= 2, 'run: a snake_case name/value option');
check(strcmp(error_id(@() metaopt_qap_solve(q, struct('time_limt', 1))), 'metaopt:badOption') && ...
      ~isempty(strfind(LAST_MESSAGE, 'time_limt')), 'an unknown option is named as given');
metaopt_free(q);
metaopt_free(g);

% --- precision: double by default where the device has fp64; single on request ---
[devs, cur] = metaopt_devices();
dflt = 'single';
if devs(cur + 1).fp64
  dflt = 'double';
end
h = metaopt.HC12(3, 12, [-1 1]);
[~, ~, info] = h.run('@F1', 'seed', 1);
check(strcmp(info.precision, dflt), ['HC12: ' dflt ' by default on this device']);
h = metaopt.HC12(3, 12, [-1 1], 'precision', 'single');
[~, ~, info] = h.run('@F1', 'seed', 1);
check(strcmp(info.precision, 'single'), 'HC12: precision single on request');
g = metaopt_mex('params:single', 3, 12, [-1 1]);
[~, ~, r] = metaopt_mex('run', g, 'GC', 1, [], '@F1', 'min');
check(strcmp(r.precision, 'single'), 'params:single');
metaopt_free(g);
check(strcmp(error_id(@() metaopt_mex('params:single,double', 3, 12, [-1 1])), 'metaopt:badOption'), 'params: single and double');
d = metaopt.DE(2, 6, 2, [-1 1]);
d.init('@F1');
[~, ~, info] = d.run(2);
check(strcmp(info.precision, dflt), ['DE: ' dflt ' by default on this device']);
d = metaopt.DE(2, 6, 2, [-1 1], 'precision', 'single');
d.init('@F1');
[~, ~, info] = d.run(2);
check(strcmp(info.precision, 'single'), 'DE: precision single on request');
d = metaopt.DE(2, 6, 2, [-1 1], 'cpu', true);
d.init('@F1');
[~, ~, info] = d.run(2);
check(strcmp(info.precision, 'double'), 'DE: double on the CPU backend');
check(strcmp(error_id(@() metaopt.DE(2, 6, 2, [-1 1], 'precision', 'half')), 'metaopt:badArgument'), 'DE: an unknown precision');
check(strcmp(error_id(@() metaopt.DE(2, 6, 2, [-1 1], 'precision', 'single', 'double', true)), 'metaopt:badOption'), ...
      'DE: precision and double both given');
e = metaopt_de_params(2, 6, 2, [-1 1], 'sat', struct('double', false));
metaopt_de_init(e, '@F1');
[~, ~, ~, ~, ~, ~, ~, p] = metaopt_mex('de-run', e, 1);
check(strcmp(p, 'single'), 'de-params: the earlier opts.double false is single');
metaopt_free(e);
clear h d

% --- the examples (matlab/examples): each runs, checks its result, and is MATLAB-compatible ---
examples = dir(fullfile(fileparts(here), 'examples', '*.m'));
check(numel(examples) >= 4, 'the examples are there');
for k = 1:numel(examples)
  path = fullfile(fileparts(here), 'examples', examples(k).name);
  why = octave_only(path);
  check(isempty(why), [examples(k).name ': no Octave-only syntax (' why ')']);
  ok = false;
  try
    ok = run_example(path);
  catch err
    fprintf(2, '%s: %s\n', examples(k).name, err.message);
  end
  check(ok, [examples(k).name ' runs under Octave and checks its result']);
end
check(live_total() == n0, 'the classes left no live instance behind');

% --- Ctrl-C in an m-function objective: a separate Octave, interrupted by tests/test_interrupt.sh ---
octave_cli = fullfile(OCTAVE_HOME, 'bin', 'octave-cli');
if ~exist(octave_cli, 'file')
  octave_cli = 'octave-cli';
end
[status, out] = system(sprintf('sh "%s" "%s"', fullfile(here, 'test_interrupt.sh'), octave_cli));
check(status == 0, ['Ctrl-C in an m-function objective: metaopt:interrupted, the instance usable after it; ' out]);

% --- Ctrl-C during long library calls (device objectives, QAP and SAT solves): this Octave sends
% itself SIGINT from a background shell one second into the call; the call stops within about a
% second with metaopt:interrupted, its best so far in the message, and the instance keeps it ---
d = metaopt.DE(8, 40, 10, [-5.12 5.12]);
d.init('@F1');
d.run(5);
[id, msg, secs, sent] = interrupt_after(1, @() d.run('maxGenerations', 1e9, 'timeLimit', 20));
check(sent && strcmp(id, 'metaopt:interrupted') && ~isempty(strfind(msg, 'best so far')) && secs > 0.9 && secs < 2, ...
      sprintf('Ctrl-C stops a long DE run within a second (%s after %.2f s: %s)', id, secs, msg));
b = d.bests();
check(numel(b) == 8 && all(isfinite(b)) && min(b) < 1, 'the DE instance keeps the best so far after Ctrl-C (d.bests)');
check(all(isfinite(d.best(find(b == min(b), 1)))), 'd.best gives the best member so far after Ctrl-C');
[~, fval, info] = d.run(5);
check(info.generations > 5 && fval <= min(b) && strcmp(info.stopReason, 'budget'), 'the DE instance runs on after Ctrl-C');
q = metaopt.QAP(fullfile(data, 'had12.dat'), 'swaps', 12);
q.tabuSearch('chains', 4, 'iterations', 1000, 'seed', 1);
[id, msg, secs, sent] = interrupt_after(1, @() q.tabuSearch('chains', 4, 'timeLimit', 20, 'target', 1, 'seed', 1));
check(sent && strcmp(id, 'metaopt:interrupted') && ~isempty(strfind(msg, 'best so far: cost')) && secs > 0.9 && secs < 2, ...
      sprintf('Ctrl-C stops a long QAP tabu search within a second (%s after %.2f s: %s)', id, secs, msg));
[id, msg, secs, sent] = interrupt_after(1, @() q.solve('runs', 0, 'timeLimit', 20, 'target', 1, 'seed', 1));
check(sent && strcmp(id, 'metaopt:interrupted') && ~isempty(strfind(msg, 'best so far: cost')) && secs > 0.9 && secs < 2, ...
      sprintf('Ctrl-C stops a long QAP HC12 solve within a second (%s after %.2f s: %s)', id, secs, msg));
[~, fval] = q.tabuSearch('chains', 4, 'iterations', 2000, 'seed', 1);
check(fval >= 1652, 'the QAP instance solves again after Ctrl-C');
h = metaopt.HC12(5, 16, [-5.12 5.12]);
h.run('@F1', 'runs', 2);
[id, msg, secs, sent] = interrupt_after(1, @() h.run('@F1', 'runs', 1e8));
check(sent && strcmp(id, 'metaopt:interrupted') && ~isempty(strfind(msg, 'best so far')) && secs > 0.9 && secs < 2, ...
      sprintf('Ctrl-C stops long HC12 runs of a catalogue objective within a second (%s after %.2f s: %s)', id, secs, msg));
s = metaopt.SAT(1, {1, -1});
[id, msg, secs, sent] = interrupt_after(1, @() s.solve('runs', 0, 'timeLimit', 20));
check(sent && strcmp(id, 'metaopt:interrupted') && ~isempty(strfind(msg, 'unsatisfied')) && secs > 0.9 && secs < 2.5, ...
      sprintf('Ctrl-C stops a long SAT solve (%s after %.2f s: %s)', id, secs, msg));
pause(0.3);
check(true, 'no interrupt of Octave''s own follows metaopt:interrupted');
clear d q h s

% --- a stop request from elsewhere (metaopt_interrupt, here the mode 'interrupt' called by the
% objective) is a result, stopReason 'interrupted', with the warning metaopt:interrupted ---
global OBJECTIVE_CALLS INTERRUPT_AT
d = metaopt.DE(2, 8, 3, [-1 1]);
OBJECTIVE_CALLS = 0;
INTERRUPT_AT = 4;
d.init(@interrupting_objective);
lastwarn('');
[x, fval, info] = d.run(1000);
[~, wid] = lastwarn();
check(strcmp(info.stopReason, 'interrupted') && strcmp(wid, 'metaopt:interrupted') && info.generations < 10 && ...
      isfinite(fval) && numel(x) == 3, 'DE stopped by a stop request: a result, stopReason interrupted, a warning');
h = metaopt.HC12(3, 12, [-1 1]);
OBJECTIVE_CALLS = 0;
INTERRUPT_AT = 3;
lastwarn('');
[x, fval, info] = h.run(@interrupting_objective, 'runs', 1000);
[~, wid] = lastwarn();
check(strcmp(info.stopReason, 'interrupted') && strcmp(wid, 'metaopt:interrupted') && info.runs < 1000 && ...
      isfinite(fval) && numel(x) == 3, 'HC12 stopped by a stop request: a result, stopReason interrupted, a warning');
INTERRUPT_AT = 0;
[~, ~, info] = h.run(@interrupting_objective, 'runs', 2);
check(strcmp(info.stopReason, 'budget'), 'later runs are not stopped');
clear d h

% --- the library's stop reason in the gateway's result structs ---
q = metaopt_qap_params(2, int64(DF3));
r = metaopt_mex('solve', q, struct('runs', 2));
check(strcmp(r.stopReason, 'budget'), 'solve: stopReason budget (the runs)');
r = metaopt_mex('solve', q, struct('runs', 0, 'timeLimit', 0.2, 'target', -1));
check(strcmp(r.stopReason, 'time_limit'), 'solve: stopReason time_limit');
r = metaopt_mex('qap-ts-solve', q, struct('chains', 2, 'iterations', 100));
check(strcmp(r.stopReason, 'budget') || strcmp(r.stopReason, 'target'), 'qap-ts-solve: stopReason budget (or target at the BKS)');
metaopt_free(q);
st = metaopt_mex('sat-clauses', 2, {[1 2], -1});
r = metaopt_mex('sat-solve', st, struct('timeLimit', 10));
check(strcmp(r.stopReason, 'target') && r.satisfiable, 'sat-solve: stopReason target (a model)');
metaopt_free(st);
g = metaopt_mex('params', 3, 8, [-1 1]);
[~, ~, r] = metaopt_mex('run', g, 'GC', 2, [], '@F1', 'min');
check(strcmp(r.stopReason, 'budget'), 'HC12 run: stopReason budget (the runs)');
metaopt_free(g);

% --- basin hopping ('bh-create', 'bh-solve', 'bh-save-state') ---
box = repmat([-5.12 5.12], 3, 1);
bo = struct('chains', 64, 'maxSearch', 200, 'seed', 7, 'launchSteps', 50);
hd = metaopt_bh_create('@F6', box, setfield(bo, 'precision', 'double'));
hc = metaopt_bh_create('@F6', box, setfield(bo, 'cpu', true));
rd = metaopt_bh_solve(hd, struct('x0', [3.1 -2.4 4.9], 'maxSteps', 200));
rc = metaopt_bh_solve(hc, struct('x0', [3.1 -2.4 4.9], 'maxSteps', 200));
check(rd.value == rc.value && isequal(rd.x, rc.x) && rd.steps == 200 && rd.evaluations == 1 + 200 * 64 && ...
      strcmp(rd.stopReason, 'budget') && strcmp(rd.precision, 'double'), 'bh-solve: the device takes the CPU backend''s steps');
metaopt_free(hd);
% a saved state (bytes and checkpoint file) continues the solve exactly
ckpt = [tempname() '.ckpt'];
first = metaopt_bh_solve(hc, struct('x0', [3.1 -2.4 4.9], 'maxSteps', 70, 'checkpoint', ckpt));
bst = metaopt_bh_save_state(hc);
whole = metaopt_bh_solve(hc, struct('maxSteps', 300));
h2 = metaopt_bh_create('@F6', box, setfield(bo, 'cpu', true));
again = metaopt_bh_solve(h2, struct('resume', bst, 'maxSteps', 300));
h3 = metaopt_bh_create('@F6', box, setfield(bo, 'cpu', true));
fromfile = metaopt_bh_solve(h3, struct('resume', ckpt, 'maxSteps', 300));
check(first.steps == 70 && isa(bst, 'uint8') && again.value == whole.value && isequal(again.x, whole.x) && ...
      fromfile.value == whole.value && again.evaluations == whole.evaluations, 'bh-solve: a saved state continues exactly');
delete(ckpt);
metaopt_free(h2); metaopt_free(h3);
h4 = metaopt_bh_create('@F6', box, setfield(setfield(bo, 'cpu', true), 'seed', 8));
check(strcmp(error_id(@() metaopt_bh_solve(h4, struct('resume', bst, 'maxSteps', 10))), 'metaopt:invalidArgument'), ...
      'bh-solve: a state of other options is refused');
metaopt_free(h4);
% an m-function objective on the CPU backend, one call a step with every chain's trial
hm = metaopt_bh_create(@(X) sum(X .^ 2, 2), [-5 5; -5 5], struct('cpu', true, 'chains', 16, 'maxSearch', 100));
rm = metaopt_bh_solve(hm, struct('x0', [1 1], 'maxSteps', 1000));
check(rm.value < 1e-9 && all(abs(rm.x) < 1e-4), 'bh-solve: an m-function objective is minimised');
t1 = tic;
rt = metaopt_bh_solve(hc, struct('timeLimit', 0.3));
check(strcmp(rt.stopReason, 'time_limit') && toc(t1) < 1.3, 'bh-solve: a time limit ends an unbounded solve');
info = metaopt_info(hc);
check(~isempty(strfind(info, 'basin hopping')) && ~isempty(strfind(info, '64 chains')), 'bh: info describes the chains');
check(strcmp(error_id(@() metaopt_bh_solve(hm, struct('maxSteps', 10, 'x0', [9 0]))), 'metaopt:invalidArgument'), ...
      'bh-solve: a starting point outside the box is refused');
check(strcmp(error_id(@() metaopt_bh_create('@F1', [1 0; 0 1])), 'metaopt:invalidArgument'), 'bh-create: lower >= upper is refused');
check(strcmp(error_id(@() metaopt_bh_create('@F1', box, struct('chains', 0, 'cpu', true))), 'metaopt:invalidArgument'), ...
      'bh-create: chains 0 is refused');
check(strcmp(error_id(@() metaopt_bh_create('@F1', box, struct('colour', 1))), 'metaopt:badOption'), 'bh-create: an unknown option');
check(strcmp(error_id(@() metaopt_bh_solve(hc, struct())), 'metaopt:invalidArgument'), 'bh-solve: no stop condition is refused');
check(strcmp(error_id(@() metaopt_bh_solve(hd, struct('maxSteps', 1))), 'metaopt:freedHandle'), 'bh-solve: a freed instance');
check(strcmp(error_id(@() metaopt_bh_solve(uint8(1:8), struct('maxSteps', 1))), 'metaopt:badHandle'), 'bh-solve: a forged instance');
metaopt_free(hm); metaopt_free(hc);

% --- the README's Octave examples (QAP and HC12; island DE), as README.md shows them ---
readme = fileread(fullfile(root, 'README.md'));
examples = {'octave-example', 'readme_ok'; 'octave-de-example', 'readme_de_ok'};
for k = 1:rows(examples)
  a = strfind(readme, ['<!-- ' examples{k, 1} ':start -->']);
  b = strfind(readme, ['<!-- ' examples{k, 1} ':end -->']);
  check(numel(a) == 1 && numel(b) == 1, ['README.md holds one Octave example between the ' examples{k, 1} ' markers']);
  if numel(a) == 1 && numel(b) == 1
    block = readme(a:b);
    fences = strfind(block, '```');
    code = block(fences(1):fences(2) - 1);
    code = code(find(code == "\n", 1) + 1:end);  % drop the ```matlab line
    cd(root);
    eval(code);
    check(exist(examples{k, 2}, 'var') && eval(examples{k, 2}), ['the README example ' examples{k, 1} ' ran and checked its results']);
  end
end

fprintf('octave tests: %.1f s\n', toc(t0));
printf('%d passed, %d failed\n', PASSED, FAILED);
exit(FAILED > 0);
