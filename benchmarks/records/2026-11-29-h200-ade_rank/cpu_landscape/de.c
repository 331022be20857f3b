/* DE experiments on CEC08t. usage: de key=val ...
   np F CR alg(0 rand1bin,1 jDE,2 rand1bin with F dither per-gen U[0.5,1]?) bound(0 reflect,1 reinit,2 clamp,3 midpoint-to-parent)
   runs seed maxev stall(gens without best improvement) restart(0 none: each run independent)
*/
#include "cec08.h"
#include <stdint.h>
static uint64_t s[4];
static inline uint64_t rotl(uint64_t x,int k){return (x<<k)|(x>>(64-k));}
static inline uint64_t nxt(void){uint64_t r=rotl(s[1]*5,7)*9,t=s[1]<<17;s[2]^=s[0];s[3]^=s[1];s[1]^=s[2];s[0]^=s[3];s[2]^=t;s[3]=rotl(s[3],45);return r;}
static inline double U(void){return (nxt()>>11)*0x1.0p-53;}
static inline int RI(int n){return (int)(U()*n);}
static void seedr(uint64_t x){for(int i=0;i<4;i++){x+=0x9e3779b97f4a7c15ULL;uint64_t z=x;z=(z^(z>>30))*0xbf58476d1ce4e5b9ULL;z=(z^(z>>27))*0x94d049bb133111ebULL;s[i]=z^(z>>31);}}
int NP=100,ALG=0,BOUND=0,RUNS=20,STALL=1000; double F=0.5,CR=0.9,MAXEV=1e7,SEED=1,TOL=1e-12;
#define MAXNP 20000
static double P[MAXNP][D],V[MAXNP][D],fp[MAXNP],Fi[MAXNP],CRi[MAXNP];
int main(int argc,char**argv){
  for(int a=1;a<argc;a++){char k[32];double v; if(sscanf(argv[a],"%31[^=]=%lf",k,&v)!=2) continue;
    if(!strcmp(k,"np"))NP=v; else if(!strcmp(k,"F"))F=v; else if(!strcmp(k,"CR"))CR=v; else if(!strcmp(k,"alg"))ALG=v;
    else if(!strcmp(k,"bound"))BOUND=v; else if(!strcmp(k,"runs"))RUNS=v; else if(!strcmp(k,"stall"))STALL=v;
    else if(!strcmp(k,"maxev"))MAXEV=v; else if(!strcmp(k,"seed"))SEED=v; else if(!strcmp(k,"tol"))TOL=v;}
  load();
  int h0=0,h1=0,h2=0,hx=0; static double fin[100000]; double totev=0, evsucc=0;
  for(int run=0;run<RUNS;run++){
    seedr((uint64_t)SEED*1000003+run);
    double ev=0,best=1e300,hit=-1; int bi=0;
    for(int i=0;i<NP;i++){for(int j=0;j<D;j++)P[i][j]=-100+200*U(); fp[i]=fx(P[i]); ev++; Fi[i]=0.5;CRi[i]=0.9; if(fp[i]<best){best=fp[i];bi=i;}}
    int stall=0;
    while(ev<MAXEV){
      double ob=best;
      for(int i=0;i<NP;i++){
        double f_=F,cr=CR;
        if(ALG==1){ f_= U()<0.1 ? 0.1+0.9*U() : Fi[i]; cr = U()<0.1 ? U() : CRi[i]; }
        int r1,r2,r3; do r1=RI(NP);while(r1==i); do r2=RI(NP);while(r2==i||r2==r1); do r3=RI(NP);while(r3==i||r3==r1||r3==r2);
        int jr=RI(D);
        for(int j=0;j<D;j++){
          double v = (j==jr||U()<cr) ? P[r1][j]+f_*(P[r2][j]-P[r3][j]) : P[i][j];
          if(v<-100||v>100){
            if(BOUND==0){ if(v<-100) v=-200-v; else v=200-v; if(v<-100||v>100) v=-100+200*U(); }
            else if(BOUND==1) v=-100+200*U();
            else if(BOUND==2) v= v<-100?-100:100;
            else v = v<-100 ? (P[i][j]-100)/2 : (P[i][j]+100)/2;
          }
          V[i][j]=v;
        }
        double fv=fx(V[i]); ev++;
        if(fv<=fp[i]){ memcpy(P[i],V[i],sizeof(double)*D); fp[i]=fv; if(ALG==1){Fi[i]=f_;CRi[i]=cr;} if(fv<best){best=fv;bi=i;} }
        if(hit<0&&best-1<1e-9) hit=ev;
      }
      if(best<ob) stall=0; else stall++;
      double mx=fp[0]; for(int i=1;i<NP;i++) if(fp[i]>mx) mx=fp[i];
      if(mx-best<TOL || stall>=STALL) break;
    }
    totev+=ev; fin[run]=best;
    double e=best-1;
    if(e<1e-8){h0++; evsucc+= hit>0?hit:ev;} else if(fabs(best-1.0194318)<1e-4)h1++; else if(fabs(best-1.0388636)<1e-4)h2++; else hx++;
    (void)bi;
  }
  printf("np=%d F=%.2f CR=%.2f alg=%d bound=%d stall=%d maxev=%.0e runs=%d | succ=%d 1pi=%d 2pi=%d other=%d | mean ev/run=%.3g | p=%.3f ev/success=%.3g\n",
    NP,F,CR,ALG,BOUND,STALL,MAXEV,RUNS,h0,h1,h2,hx,totev/RUNS,(double)h0/RUNS, h0? totev/h0: -1.0);
  { int c(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;} qsort(fin,RUNS,sizeof(double),c);
    printf("   final f: min %.12f q25 %.6f med %.6f q75 %.6f max %.6f\n",fin[0],fin[RUNS/4],fin[RUNS/2],fin[3*RUNS/4],fin[RUNS-1]); }
  return 0;
}
