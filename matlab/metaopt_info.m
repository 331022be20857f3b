function info = metaopt_info(h)
% METAOPT_INFO  What an instance is: a struct (QAP, SAT) or text (general HC12, island DE).
  info = metaopt_mex('info', h);
end
