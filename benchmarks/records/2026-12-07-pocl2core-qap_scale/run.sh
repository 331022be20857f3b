#!/bin/bash
# bench qap-scale on the 2-core machine: 2 chains, 20 iterations (two launches of 10), no time-to-quality runs
target/release/metaopt bench qap-scale --chains 2 --iterations 20 --time-limit 0 --csv scale.csv --plot scale.png 2> scale.log
