/* DE with restart mechanisms on CEC08t.
 alg 0 rand/1/bin (F,CR)  1 jDE (tau 0.1, F in [0.1,1], CR in [0,1])
 init: ic=0 global box; ic=1 box of half-width R0 around o (analysis only); ic=2 around 1-pi local min (z_0=3.1385) (analysis only)
 rs: 0 single run; 1 global restarts; 2 restart in box half-width R around best-so-far (best kept); 3 like 2, R log-uniform in [Rlo,R]
 each "trial" runs until hit (f-1<1e-9) or maxev; converge criterion per restart: spread<tol or stall gens */
#include "cec08.h"
#include <stdint.h>
static uint64_t s[4];
static inline uint64_t rotl(uint64_t x,int k){return (x<<k)|(x>>(64-k));}
static inline uint64_t nxt(void){uint64_t r=rotl(s[1]*5,7)*9,t=s[1]<<17;s[2]^=s[0];s[3]^=s[1];s[1]^=s[2];s[0]^=s[3];s[2]^=t;s[3]=rotl(s[3],45);return r;}
static inline double U(void){return (nxt()>>11)*0x1.0p-53;}
static inline int RI(int n){return (int)(U()*n);}
static void seedr(uint64_t x){for(int i=0;i<4;i++){x+=0x9e3779b97f4a7c15ULL;uint64_t z=x;z=(z^(z>>30))*0xbf58476d1ce4e5b9ULL;z=(z^(z>>27))*0x94d049bb133111ebULL;s[i]=z^(z>>31);}}
int KEEP=1,NP=100,ALG=0,BOUND=0,RUNS=20,STALL=1000,IC=0,RS=0,VERB=0; double F=0.5,CR=0.9,MAXEV=1e7,SEED=1,TOL=1e-12,R0=5,R=5,RLO=0.5;
#define MAXNP 20000
static double P[MAXNP][D],V[D],fp[MAXNP],Fi[MAXNP],CRi[MAXNP],C[D];
static double gb, gx[D];
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
static double inv1pi[D];
int main(int argc,char**argv){
  for(int a=1;a<argc;a++){char k[32];double v; if(sscanf(argv[a],"%31[^=]=%lf",k,&v)!=2) continue;
    if(!strcmp(k,"np"))NP=v; else if(!strcmp(k,"F"))F=v; else if(!strcmp(k,"CR"))CR=v; else if(!strcmp(k,"alg"))ALG=v;
    else if(!strcmp(k,"bound"))BOUND=v; else if(!strcmp(k,"runs"))RUNS=v; else if(!strcmp(k,"stall"))STALL=v;
    else if(!strcmp(k,"maxev"))MAXEV=v; else if(!strcmp(k,"seed"))SEED=v; else if(!strcmp(k,"tol"))TOL=v;
    else if(!strcmp(k,"ic"))IC=v; else if(!strcmp(k,"R0"))R0=v; else if(!strcmp(k,"rs"))RS=v; else if(!strcmp(k,"R"))R=v;
    else if(!strcmp(k,"Rlo"))RLO=v; else if(!strcmp(k,"v"))VERB=v; else if(!strcmp(k,"keep"))KEEP=v;}
  load();
  if(IC==2){ /* solve M y = (3.1385,0,...) by Gauss elimination */
    double a[D][D+1]; for(int i=0;i<D;i++){for(int j=0;j<D;j++)a[i][j]=M[i*D+j]; a[i][D]= i==0?3.138499:0;}
    for(int c=0;c<D;c++){int p=c;for(int r=c+1;r<D;r++)if(fabs(a[r][c])>fabs(a[p][c]))p=r; for(int j=0;j<=D;j++){double t=a[c][j];a[c][j]=a[p][j];a[p][j]=t;}
      for(int r=0;r<D;r++)if(r!=c){double m=a[r][c]/a[c][c]; for(int j=0;j<=D;j++)a[r][j]-=m*a[c][j];}}
    for(int i=0;i<D;i++) inv1pi[i]=O[i]+a[i][D]/a[i][i];
    if(VERB) fprintf(stderr,"1pi point f=%.15f\n",fx(inv1pi));
  }
  int nsucc=0,nrst_tot=0; double evs_succ=0, evall=0; static double fin[100000], hitev[100000];
  for(int run=0;run<RUNS;run++){
    seedr((uint64_t)SEED*1000003+run);
    double ev=0,hit=-1,nextcp=1e5; gb=1e300; int nrst=0;
    double lo=-100,hi=100;
    for(int j=0;j<D;j++) C[j]= IC==1?O[j]: IC==2? inv1pi[j]:0;
    double rad = IC? R0 : 100;
    int first=1;
    while(ev<MAXEV && hit<0){
      /* (re)initialise */
      double best=1e300;
      for(int i=0;i<NP;i++){
        if(!first && RS>=2 && KEEP && i==0){ memcpy(P[0],gx,sizeof gx); fp[0]=gb; }
        else { for(int j=0;j<D;j++){double v=C[j]+rad*(2*U()-1); if(v<lo)v=lo; if(v>hi)v=hi; P[i][j]=v;} fp[i]=fx(P[i]); ev++; }
        Fi[i]=0.5;CRi[i]=0.9; if(fp[i]<best)best=fp[i];
      }
      first=0;
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
            if(v<lo||v>hi){
              if(BOUND==0){ if(v<lo) v=2*lo-v; else v=2*hi-v; if(v<lo||v>hi) v=lo+(hi-lo)*U(); }
              else if(BOUND==1) v=lo+(hi-lo)*U();
              else if(BOUND==2) v= v<lo?lo:hi;
              else v = v<lo ? (P[i][j]+lo)/2 : (P[i][j]+hi)/2;
            }
            V[j]=v;
          }
          double fv=fx(V); ev++;
          if(fv<=fp[i]){ memcpy(P[i],V,sizeof V); fp[i]=fv; if(ALG==1){Fi[i]=f_;CRi[i]=cr;} if(fv<best)best=fv;
            if(fv<gb){gb=fv; memcpy(gx,V,sizeof V);} }
          if(VERB==3 && ev>=nextcp){ fprintf(stderr,"  run %d ev %.0e gb %.10f\n",run,ev,gb); nextcp*=sqrt(10.0);} 
          if(hit<0&&gb-1<1e-9){hit=ev;break;}
        }
        if(hit>=0) break;
        if(best<ob) stall=0; else stall++;
        double mx=fp[0]; for(int i=1;i<NP;i++) if(fp[i]>mx) mx=fp[i];
        if(mx-best<TOL || stall>=STALL) break;
      }
      if(gb<1e300 && VERB>1) fprintf(stderr,"run %d restart %d ev %.3g best %.12f gb %.12f\n",run,nrst,ev,best,gb);
      if(RS==0) break;
      nrst++;
      if(RS==1){ for(int j=0;j<D;j++)C[j]=0; rad=100; }
      else { memcpy(C,gx,sizeof gx); rad = RS==2? R : RLO*pow(R/RLO,U()); }
    }
    if(VERB==1){double z[D]; x2z(gx,z); fprintf(stderr,"run %3d f=%.10f z=",run,gb); for(int j=0;j<D;j++) fprintf(stderr," %7.3f",z[j]); fprintf(stderr,"\n");}
    fin[run]=gb; hitev[run]=hit; evall+=ev; nrst_tot+=nrst;
    if(hit>0){nsucc++; evs_succ+=hit;}
  }
  qsort(fin,RUNS,sizeof(double),cmpd);
  int h1=0,h2=0; for(int r=0;r<RUNS;r++){ if(fabs(fin[r]-1.0194318)<1e-4)h1++; if(fabs(fin[r]-1.0388636)<1e-4)h2++; }
  printf("keep=%d np=%d F=%.2f CR=%.2f alg=%d bd=%d stall=%d tol=%g ic=%d R0=%g rs=%d R=%g Rlo=%g maxev=%.0e runs=%d | succ=%d 1pi=%d 2pi=%d | ev/run=%.3g restarts/run=%.1f | ev/success=%.3g mean ev-to-hit(succ)=%.3g\n",
    KEEP,NP,F,CR,ALG,BOUND,STALL,TOL,IC,R0,RS,R,RLO,MAXEV,RUNS,nsucc,h1,h2,evall/RUNS,(double)nrst_tot/RUNS, nsucc? evall/nsucc:-1.0, nsucc? evs_succ/nsucc:-1.0);
  printf("   final f: min %.12f q25 %.6f med %.6f q75 %.6f max %.6f\n",fin[0],fin[RUNS/4],fin[RUNS/2],fin[3*RUNS/4],fin[RUNS-1]);
  return 0;
}
