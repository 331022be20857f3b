#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#define D 10
static double O[D], M[D*D];
static void load(void){
  FILE*f=fopen("/work/shared/data/cec2019/shift_data_8.txt","r");
  for(int i=0;i<D;i++) if(fscanf(f,"%lf",&O[i])!=1) exit(1);
  fclose(f);
  f=fopen("/work/shared/data/cec2019/M_8_D10.txt","r");
  for(int i=0;i<D*D;i++) if(fscanf(f,"%lf",&M[i])!=1) exit(1);
  fclose(f);
}
static inline double gsch(double a,double b){
  double s=a*a+b*b, t=sin(sqrt(s)), d=1+0.001*s;
  return 0.5+(t*t-0.5)/(d*d);
}
static inline double fz(const double*z){
  double r=1.0;
  for(int i=0;i<D;i++) r+=gsch(z[i],z[(i+1)%D]);
  return r;
}
static inline void x2z(const double*x,double*z){
  double y[D]; for(int j=0;j<D;j++) y[j]=x[j]-O[j];
  for(int i=0;i<D;i++){double s=0; for(int j=0;j<D;j++) s+=M[i*D+j]*y[j]; z[i]=s;}
}
static inline double fx(const double*x){ double z[D]; x2z(x,z); return fz(z); }
