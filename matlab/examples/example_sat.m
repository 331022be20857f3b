% EXAMPLE_SAT  A SATLIB formula solved by probSAT walks (and a clause list by HC12), with metaopt.SAT
%   (MATLAB and GNU Octave).
here = fileparts(mfilename('fullpath'));
addpath(fileparts(here));
data = getenv('METAOPT_DATA_DIR');
if isempty(data)
  data = fullfile(here, '..', '..', 'data');
end

s = metaopt.SAT(fullfile(data, 'satlib', 'uf20-91', 'uf20-01.cnf'));
[x, fval, info] = s.solve('timeLimit', 30, 'seed', 2);
fprintf('uf20-01 (%d variables, %d clauses): %d unsatisfied, stopped by %s\n', ...
        s.NumVars, s.NumClauses, fval, info.stopReason);
% the evaluator agrees: every clause is satisfied by a model
satisfied = s.evaluate(x);
fprintf('  satisfied clauses: %d of %d\n', satisfied, s.NumClauses);

% a small formula given as clauses
t = metaopt.SAT(3, {[1 -2], [2 3], -1});
[y, fy] = t.solve('method', 'hc12', 'runs', 10, 'timeLimit', 0);
fprintf('(x1 | ~x2) & (x2 | x3) & ~x1: %s, %d unsatisfied\n', mat2str(y), fy);
example_ok = fval == 0 && satisfied == s.NumClauses && fy == 0;
clear s t
