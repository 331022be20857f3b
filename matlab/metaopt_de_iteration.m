function generation = metaopt_de_iteration(h)
% METAOPT_DE_ITERATION  One generation of island DE (trials, evaluation, selection, and
%   migration when its period comes); returns the generation number since metaopt_de_init.
  generation = metaopt_mex('de-iteration', h);
end
