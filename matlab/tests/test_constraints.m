% Constraints, the gradient-based repair and the polish through the MEX front end
% (docs/specs/DE.md "Constraints"): island DE with an m-function violation and with the repair,
% basin hopping and the polish with a source's constraints and with an m-function violation,
% batched DE with a source's constraints and integer variables; the device against the CPU
% backend where both run; every misuse an error naming its option. Run from matlab/ after
% build_octave().
1;
addpath(fileparts(mfilename('fullpath')));
addpath(fileparts(fileparts(mfilename('fullpath'))));
global PASSED FAILED
PASSED = 0;
FAILED = 0;

% min |x|^2 subject to x0 + x1 >= 1: (0.5, 0.5), f = 0.5
sq = @(X) sum(X .^ 2, 2);
vl = @(X) max(0, 1 - X(:, 1) - X(:, 2));
head = 'FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) { return x[0] * x[0] + x[stride] * x[stride]; }';
sig = 'void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)';
ineq = struct('source', [head char(10) sig ' { c[0] = (FP)1 - x[0] - x[stride]; }']);
% the same optimum as an equality, x0 + x1 = 1
eq = struct('source', [head char(10) sig ' { c[0] = x[0] + x[stride] - (FP)1; }']);
deopts = struct('cpu', true, 'precision', 'double', 'CR', 0.9, 'F_coefs_min', 0.5, 'F_coefs_max', 0.9);

% --- island DE: an m-function violation, Deb's rules and the epsilon level ---
for rule = {'deb', [0.2 100 5]}
  d = metaopt_de_params(4, 20, 2, [-2 2], 'sat', deopts);
  metaopt_de_init(d, sq, 'DE/rand/1', 'PermuteN', 10, struct('violation', vl, 'constraintHandling', rule{1}));
  [v, x, r] = metaopt_de_run(d, 600);
  check(abs(v - 0.5) < 1e-6 && r.violation == 0 && sum(x) >= 1 - 1e-12, sprintf('DE, an m-function violation: %g', v));
  metaopt_free(d);
end
d = metaopt_de_params(4, 20, 2, [-2 2], 'sat', deopts);
[id, msg] = error_of(@() metaopt_de_init(d, sq, 'DE/rand/1', 'None', 10, struct('violation', @(X) ones(2, 1))));
check(strcmp(id, 'metaopt:objective') && ~isempty(strfind(msg, 'violation must return')), ['a violation of the wrong size: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, sq, 'DE/rand/1', 'None', 10, struct('violation', @(X) -ones(size(X, 1), 1))));
check(strcmp(id, 'metaopt:objective') && ~isempty(strfind(msg, '>= 0')), ['a negative violation: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, sq, 'DE/rand/1', 'None', 10, struct('violation', @(X) error('my:viol', 'no violation today'))));
check(strcmp(id, 'my:viol') && ~isempty(strfind(msg, 'no violation today')), ['the violation''s own error: ' id]);
[id, msg] = error_of(@() metaopt_de_init(d, ineq, 'DE/rand/1', 'None', 10, struct('violation', vl)));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'violation')), ['a violation with a source: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, sq, 'DE/rand/1', 'None', 10, struct('violation', vl, 'eqTol', 1e-3)));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'eqTol')), ['eqTol with a violation: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, sq, 'DE/rand/1', 'None', 10, struct('violation', 3)));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'opts.violation')), ['a violation that is a number: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, sq, 'DE/rand/1', 'None', 10, struct('violation', vl, 'repair', 0.5)));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'repair')), ['the repair with a violation: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, sq, 'DE/rand/1', 'None', 10, struct('repair', 0.5)));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'repair')), ['the repair without constraints: ' msg]);
[id, msg] = error_of(@() metaopt_de_params(4, 10, 2, [-1 1], 'sat', struct('violation', vl)));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'de-init')), ['a violation is an option of de-init: ' msg]);
metaopt_free(d);

% the class passes them on: metaopt.DE's init takes violation, its run reports the violation
dc = metaopt.DE(4, 20, 2, [-2 2], 'cpu', true, 'precision', 'double', 'CR', 0.9, 'F_coefs_min', 0.5, 'F_coefs_max', 0.9);
dc.init(sq, 'violation', vl);
[x, f, info] = dc.run(600);
check(abs(f - 0.5) < 1e-6 && info.violation == 0 && sum(x) >= 1 - 1e-12, sprintf('metaopt.DE, an m-function violation: %g', f));
clear dc;

% --- island DE: the gradient-based repair of a source's equality, device and CPU backend ---
runs = {};
for cpu = [false true]
  o = deopts;
  o.cpu = cpu;
  d = metaopt_de_params(2, 20, 2, [-2 2], 'sat', o);
  metaopt_de_init(d, eq, 'DE/rand/1', 'None', 10, struct('constraints', [0 1], 'repair', [1 3]));
  [v, x, r] = metaopt_de_run(d, 300);
  check(abs(v - 0.5) < 1e-3 && r.violation == 0 && abs(sum(x) - 1) <= 1e-4, sprintf('DE, the repair (cpu %d): %g', cpu, v));
  runs{end + 1} = [v x r.evaluations];
  metaopt_free(d);
end
check(max(abs(runs{1} - runs{2})) < 1e-9, 'DE, the repair: the device equals the CPU backend');
d = metaopt_de_params(2, 20, 2, [-2 2], 'sat', deopts);
[id, msg] = error_of(@() metaopt_de_init(d, eq, 'DE/rand/1', 'None', 10, struct('constraints', [0 1], 'repair', 2)));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'repair')), ['a repair probability of 2: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, eq, 'DE/rand/1', 'None', 10, struct('constraints', [0 1], 'repair', [0.5 1.5])));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'rounds')), ['1.5 repair rounds: ' msg]);
[id, msg] = error_of(@() metaopt_de_init(d, eq, 'DE/rand/1', 'None', 10, struct('constraints', [0 1], 'repair', [0.5 3 1])));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'opts.repair')), ['three repair values: ' msg]);
metaopt_free(d);

% --- basin hopping: a source's constraints on the device, an m-function violation on the CPU backend ---
h = metaopt_bh_create(ineq, [-2 2; -2 2], struct('chains', 32, 'constraints', [1 0], 'precision', 'double'));
r = metaopt_bh_solve(h, struct('x0', [1 1], 'maxSteps', 3000));
check(abs(r.value - 0.5) < 1e-4 && r.violation == 0 && sum(r.x) >= 1 - 1e-12, sprintf('BH, a source''s constraints: %g', r.value));
metaopt_free(h);
h = metaopt_bh_create(sq, [-2 2; -2 2], struct('chains', 16, 'cpu', true, 'violation', vl));
r = metaopt_bh_solve(h, struct('x0', [-1 -1], 'maxSteps', 3000));
check(abs(r.value - 0.5) < 1e-4 && r.violation == 0, sprintf('BH, an m-function violation from an infeasible start: %g', r.value));
metaopt_free(h);
[id, msg] = error_of(@() metaopt_bh_create(ineq, [-2 2; -2 2], struct('constraints', [1 0], 'constraintHandling', 'epsilon')));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'constraintHandling')), ['BH takes Deb''s rules only: ' msg]);
[id, msg] = error_of(@() metaopt_bh_create(ineq, [-2 2; -2 2], struct('constraints', [1 0], 'repair', 0.1)));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'repair')), ['BH takes no repair: ' msg]);
[id, msg] = error_of(@() metaopt_bh_create(sq, [-2 2; -2 2], struct('cpu', true, 'constraints', [1 0])));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'opts.violation')), ['BH, counts with an m-function: ' msg]);
[id, msg] = error_of(@() metaopt_bh_create(ineq, [-2 2; -2 2], struct('constraints', [0 0])));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'constraints')), ['BH, [0 0] constraints: ' msg]);
check(metaopt_mex('live').bh == 0, 'BH: a refused bh-create leaves no instance');

% --- the polish: from a near point to the optimum, never to a worse point ---
r = metaopt_bh_polish(ineq, [-2 2; -2 2], [0.7 0.6], struct('constraints', [1 0], 'precision', 'double'));
check(r.improved && r.violation == 0 && abs(r.value - 0.5) < 1e-3 && r.value < r.startValue && abs(r.startValue - 0.85) < 1e-12, ...
      sprintf('the polish, a source''s constraints: %g', r.value));
r = metaopt_bh_polish(sq, [-2 2; -2 2], [0.2 0.3], struct('cpu', true, 'violation', vl));
check(r.startViolation > 0.49 && r.violation == 0 && r.improved && abs(r.value - 0.5) < 1e-3, ...
      sprintf('the polish, an m-function violation from an infeasible point: %g (violation %g)', r.value, r.violation));
r = metaopt_bh_polish('@F1', [-5 5; -5 5; -5 5], [0 0 0], struct('steps', 50));
check(~r.improved && isequal(r.x, [0 0 0]) && r.value == 0 && strcmp(r.stopReason, 'budget'), 'the polish keeps a point it cannot better');
[id, msg] = error_of(@() metaopt_bh_polish('@F1', [-5 5; -5 5], [0 0 0]));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'dims = 2')), ['the polish, x of the wrong length: ' msg]);
[id, msg] = error_of(@() metaopt_bh_polish('@F1', [-5 5; -5 5], [9 0]));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'x')), ['the polish, x outside the box: ' msg]);
[id, msg] = error_of(@() metaopt_bh_polish(@(X) error('my:obj', 'broken objective'), [-5 5; -5 5], [1 1], struct('cpu', true)));
check(strcmp(id, 'my:obj'), ['the polish raises the objective''s own error: ' id ' ' msg]);
check(metaopt_mex('live').total == 0, 'the polish leaves no instance behind');

% --- batched DE: a source's constraints and integer variables ---
p = struct('source', {ineq.source, ''}, 'function', {'', 'F1'}, 'dims', {2, 3}, 'lower', {-2, -3}, ...
           'upper', {2, 4}, 'members', {30, 20}, 'f', {0.6, 0.5}, 'generations', {400, 200}, ...
           'constraints', {[1 0], []}, 'integrality', {[], [1 0 1]});
for cpu = [false true]
  b = metaopt_mex('bde-run', p, struct('cpu', cpu, 'precision', 'double'));
  check(abs(b.bestValue(1) - 0.5) < 1e-4 && b.violation(1) == 0 && sum(b.best{1}) >= 1 - 1e-12, ...
        sprintf('batched DE, a source''s constraints (cpu %d): %g', cpu, b.bestValue(1)));
  x2 = b.best{2};
  check(x2(1) == round(x2(1)) && x2(3) == round(x2(3)) && b.violation(2) == 0 && b.bestValue(2) < 1e-6, ...
        sprintf('batched DE, integer variables (cpu %d)', cpu));
end
q = p(1);
q.constraintHandling = 'epsilon';
[id, msg] = error_of(@() metaopt_mex('bde-run', q, struct('cpu', true)));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'constraintHandling')), ['an unknown problem field: ' msg]);
q = p(1);
q.constraints = [1 0 0];
[id, msg] = error_of(@() metaopt_mex('bde-run', q, struct('cpu', true)));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'problems(1).constraints')), ['three constraint counts: ' msg]);
q = p(2);
q.eqTol = 1e-3;
[id, msg] = error_of(@() metaopt_mex('bde-run', q, struct('cpu', true)));
check(strcmp(id, 'metaopt:badOption') && ~isempty(strfind(msg, 'eqTol')), ['eqTol without constraints: ' msg]);
q = p(2);
q.integrality = [1 0];
[id, msg] = error_of(@() metaopt_mex('bde-run', q, struct('cpu', true)));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'integrality')), ['two flags for three dims: ' msg]);
check(metaopt_mex('live').total == 0, 'refused batches leave no instance behind');
printf('%d passed, %d failed\n', PASSED, FAILED);
exit(FAILED > 0);
