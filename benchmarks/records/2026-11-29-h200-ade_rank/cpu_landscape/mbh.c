/* Monotonic basin hopping (Leary 2000 / Wales-Doye 1997) on CEC08t, black-box local search in x.
   pert: 0 uniform box half-width delta; 1 gaussian sigma delta; 2 box with delta log-uniform in [dlo,delta]
   ls: steepest descent with central-difference gradient + backtracking (counts evals) */
#include "cec08.h"
#include <stdint.h>
static uint64_t s[4];
static inline uint64_t rotl(uint64_t x,int k){return (x<<k)|(x>>(64-k));}
static inline uint64_t nxt(void){uint64_t r=rotl(s[1]*5,7)*9,t=s[1]<<17;s[2]^=s[0];s[3]^=s[1];s[1]^=s[2];s[0]^=s[3];s[2]^=t;s[3]=rotl(s[3],45);return r;}
static inline double U(void){return (nxt()>>11)*0x1.0p-53;}
static double N01(void){double u=U()+1e-300,v=U(); return sqrt(-2*log(u))*cos(2*M_PI*v);}
static void seedr(uint64_t x){for(int i=0;i<4;i++){x+=0x9e3779b97f4a7c15ULL;uint64_t z=x;z=(z^(z>>30))*0xbf58476d1ce4e5b9ULL;z=(z^(z>>27))*0x94d049bb133111ebULL;s[i]=z^(z>>31);}}
static double ev;
static double F(const double*x){ev++; return fx(x);}
static void clampx(double*x){for(int j=0;j<D;j++){if(x[j]<-100)x[j]=-100; if(x[j]>100)x[j]=100;}}
static void grad(double*x,double*g){double h=1e-6; for(int j=0;j<D;j++){double t=x[j]; x[j]=t+h; double a=F(x); x[j]=t-h; double b=F(x); x[j]=t; g[j]=(a-b)/(2*h);}}
static double ls(double*x,double f){ /* BFGS, numeric gradient, Armijo backtracking */
  double H[D][D]; for(int i=0;i<D;i++)for(int j=0;j<D;j++)H[i][j]=(i==j);
  double g[D]; grad(x,g);
  for(int it=0;it<400;it++){
    double p[D],gp=0; for(int i=0;i<D;i++){double t=0; for(int j=0;j<D;j++) t-=H[i][j]*g[j]; p[i]=t; gp+=t*g[i];}
    if(gp>=0){ for(int i=0;i<D;i++)for(int j=0;j<D;j++)H[i][j]=(i==j); for(int i=0;i<D;i++)p[i]=-g[i]; gp=0; for(int i=0;i<D;i++)gp-=g[i]*g[i]; }
    if(-gp<1e-22) break;
    double st=1,xn[D],fn; int ok=0;
    for(int k=0;k<40;k++){ for(int i=0;i<D;i++) xn[i]=x[i]+st*p[i]; clampx(xn); fn=F(xn); if(fn<=f+1e-4*st*gp){ok=1;break;} st*=0.5; }
    if(!ok) break;
    double gn[D]; grad(xn,gn);
    double sv[D],yv[D],sy=0; for(int i=0;i<D;i++){sv[i]=xn[i]-x[i]; yv[i]=gn[i]-g[i]; sy+=sv[i]*yv[i];}
    double df=f-fn; memcpy(x,xn,sizeof xn); memcpy(g,gn,sizeof gn); f=fn;
    if(sy>1e-30){ double Hy[D],yHy=0; for(int i=0;i<D;i++){double t=0; for(int j=0;j<D;j++) t+=H[i][j]*yv[j]; Hy[i]=t; yHy+=yv[i]*t;}
      for(int i=0;i<D;i++)for(int j=0;j<D;j++) H[i][j]+= (sy+yHy)*sv[i]*sv[j]/(sy*sy) - (Hy[i]*sv[j]+sv[i]*Hy[j])/sy; }
    if(df<1e-15) break;
  }
  return f;
}
static int LSK=0,LNP=10; static double LRHO=0.2,LCR=1.0,LF=0.5;
/* local DE: rand/1/bin, NP=LNP, init box half-width LRHO around x (x kept as member 0), until spread<1e-13 or 3000 gens */
static double lsde(double*x,double f){
  double P[64][D],fp[64],V[D]; memcpy(P[0],x,sizeof(double)*D); fp[0]=f;
  for(int i=1;i<LNP;i++){for(int j=0;j<D;j++)P[i][j]=x[j]+LRHO*(2*U()-1); clampx(P[i]); fp[i]=F(P[i]);}
  for(int g=0;g<3000;g++){
    for(int i=0;i<LNP;i++){int r1,r2,r3; do r1=(int)(U()*LNP);while(r1==i); do r2=(int)(U()*LNP);while(r2==i||r2==r1); do r3=(int)(U()*LNP);while(r3==i||r3==r1||r3==r2);
      int jr=(int)(U()*D); for(int j=0;j<D;j++) V[j]=(j==jr||U()<LCR)? P[r1][j]+LF*(P[r2][j]-P[r3][j]) : P[i][j]; clampx(V);
      double fv=F(V); if(fv<=fp[i]){memcpy(P[i],V,sizeof V); fp[i]=fv;}}
    double mn=fp[0],mx=fp[0]; for(int i=1;i<LNP;i++){if(fp[i]<mn)mn=fp[i]; if(fp[i]>mx)mx=fp[i];}
    if(mx-mn<1e-13) break;
  }
  int b=0; for(int i=1;i<LNP;i++) if(fp[i]<fp[b]) b=i; memcpy(x,P[b],sizeof(double)*D); return fp[b];
}
/* (1+1)-ES with 1/5th success rule (Rechenberg; Kern et al. 2004 style update), isotropic gaussian */
static double ES0=0.3,ESSTOP=1e-9;
static double lses(double*x,double f){
  double sg=ES0,y[D]; int it=0;
  while(sg>ESSTOP && it<20000){ it++;
    for(int j=0;j<D;j++) y[j]=x[j]+sg*N01(); clampx(y);
    double fy=F(y);
    if(fy<=f){ memcpy(x,y,sizeof y); f=fy; sg*=exp(0.8/D*1.0); } else sg*=exp(-0.2/D*1.0);
  }
  return f;
}
static double LS(double*x,double f){ return LSK==1? lsde(x,f): LSK==2? lses(x,f): ls(x,f); }
/* jDE prephase (Brest et al. 2006): rand/1/bin, tau1=tau2=0.1, F in [0.1,1], CR in [0,1]; returns best after pev evals */
static int PRE=0; static double PEV=0;
static double jde(double*xb){
  static double P[4096][D],fp[4096],Fi[4096],Ci[4096]; double V[D]; int NP=PRE,b=0;
  for(int i=0;i<NP;i++){for(int j=0;j<D;j++)P[i][j]=-100+200*U(); fp[i]=F(P[i]); Fi[i]=0.5;Ci[i]=0.9; if(fp[i]<fp[b])b=i;}
  double e0=ev;
  while(ev-e0<PEV){
    for(int i=0;i<NP;i++){ double f_=U()<0.1?0.1+0.9*U():Fi[i], cr=U()<0.1?U():Ci[i];
      int r1,r2,r3; do r1=(int)(U()*NP);while(r1==i); do r2=(int)(U()*NP);while(r2==i||r2==r1); do r3=(int)(U()*NP);while(r3==i||r3==r1||r3==r2);
      int jr=(int)(U()*D); for(int j=0;j<D;j++){ double v=(j==jr||U()<cr)? P[r1][j]+f_*(P[r2][j]-P[r3][j]) : P[i][j];
        if(v<-100) v=-200-v; if(v>100) v=200-v; if(v<-100||v>100) v=-100+200*U(); V[j]=v; }
      double fv=F(V); if(fv<=fp[i]){memcpy(P[i],V,sizeof V); fp[i]=fv; Fi[i]=f_; Ci[i]=cr; if(fv<fp[b])b=i;} }
  }
  memcpy(xb,P[b],sizeof(double)*D); return fp[b];
}
int main(int argc,char**argv){
  int RUNS=20,PERT=0,IC=0; double DEL=2,DLO=0.3,MAXEV=1e7,SEED=1;
  for(int a=1;a<argc;a++){char k[32];double v; if(sscanf(argv[a],"%31[^=]=%lf",k,&v)!=2) continue;
    if(!strcmp(k,"runs"))RUNS=v; else if(!strcmp(k,"pert"))PERT=v; else if(!strcmp(k,"delta"))DEL=v; else if(!strcmp(k,"dlo"))DLO=v;
    else if(!strcmp(k,"maxev"))MAXEV=v; else if(!strcmp(k,"seed"))SEED=v; else if(!strcmp(k,"ic"))IC=v; else if(!strcmp(k,"lsk"))LSK=v; else if(!strcmp(k,"lnp"))LNP=v; else if(!strcmp(k,"lrho"))LRHO=v; else if(!strcmp(k,"lcr"))LCR=v; else if(!strcmp(k,"lf"))LF=v; else if(!strcmp(k,"es0"))ES0=v; else if(!strcmp(k,"pre"))PRE=v; else if(!strcmp(k,"esstop"))ESSTOP=v; else if(!strcmp(k,"pev"))PEV=v;}
  load();
  int ns=0; double evsum=0,evhit=0; long lscount=0;
  for(int run=0;run<RUNS;run++){
    seedr((uint64_t)SEED*7919+run); ev=0;
    double xb[D],x[D]; for(int j=0;j<D;j++) xb[j]= IC? O[j]+2*(2*U()-1) : -100+200*U();
    if(IC==2){ int jj=run%D; double sg= (run/D)%2? -1:1; double a[D][D+1]; for(int i=0;i<D;i++){for(int j=0;j<D;j++)a[i][j]=M[i*D+j]; a[i][D]= i==jj?sg*3.1385:0;}
      for(int c=0;c<D;c++){int p=c;for(int r=c+1;r<D;r++)if(fabs(a[r][c])>fabs(a[p][c]))p=r; for(int j=0;j<=D;j++){double t=a[c][j];a[c][j]=a[p][j];a[p][j]=t;}
        for(int r=0;r<D;r++)if(r!=c){double m=a[r][c]/a[c][c]; for(int j=0;j<=D;j++)a[r][j]-=m*a[c][j];}}
      for(int i=0;i<D;i++) xb[i]=O[i]+a[i][D]/a[i][i]; }
    double fb,fpre=0; if(PRE){ fb=jde(xb); fpre=fb; fb=LS(xb,fb);} else fb=LS(xb,F(xb)); double hit=-1; long nls=0, nacc=0;
    while(ev<MAXEV){
      double d = PERT>=2? DLO*pow(DEL/DLO,U()) : DEL;
      for(int j=0;j<D;j++) x[j]= xb[j] + ((PERT==1||PERT==3)? d*N01() : d*(2*U()-1));
      clampx(x);
      double f=LS(x,F(x)); nls++;
      if(f<fb){fb=f; memcpy(xb,x,sizeof x); nacc++; if(LSK==2 && fb<1.001){double sv=ESSTOP; ESSTOP=1e-10; fb=lses(xb,fb); ESSTOP=sv;}}
      if(fb-1<1e-9){hit=ev;break;}
    }
    lscount+=nls;
    evsum+=ev; if(hit>0){ns++; evhit+=hit;}
    if(PRE) printf("  [pre-phase best %.10f] ",fpre); printf("  run %d fb=%.12f ev=%.3g nls=%ld acc=%ld %s\n",run,fb,ev,nls,nacc,hit>0?"HIT":"");
  }
  printf("MBH pre=%d pev=%.0e lsk=%d lnp=%d lrho=%g lcr=%g lf=%g pert=%d delta=%g dlo=%g ic=%d maxev=%.0e runs=%d | succ=%d | ev/LS=%.0f | total ev/success=%.3g mean ev-to-hit=%.3g\n",PRE,PEV,LSK,LNP,LRHO,LCR,LF,PERT,DEL,DLO,IC,MAXEV,RUNS,ns,evsum/lscount,ns?evsum/ns:-1.0,ns?evhit/ns:-1.0);
}
