#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#define _MAIN
#include "cec19_func.h"
#define D 10
static double O[D], MM[D*D];
static void load(void){ set_dir_path("/work/main/data/cec2019"); }
static inline double fx(const double*x){ double f; cec19_test_func((double*)x,&f,D,1,9); return f; }
