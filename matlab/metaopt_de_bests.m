function bests = metaopt_de_bests(h)
% METAOPT_DE_BESTS  The best value of every island, 1 x islands (the thesis's getBestsFitness).
  bests = metaopt_mex('de-bests', h);
end
