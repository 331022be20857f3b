#include "cec08.h"
/* SVD of M via Jacobi on M^T M ; inverse via Gauss-Jordan */
static void inv(const double*A,double*B){
  double a[D][2*D]; for(int i=0;i<D;i++)for(int j=0;j<2*D;j++) a[i][j]= j<D?A[i*D+j]:(j-D==i);
  for(int c=0;c<D;c++){int p=c; for(int r=c+1;r<D;r++) if(fabs(a[r][c])>fabs(a[p][c]))p=r;
    for(int j=0;j<2*D;j++){double t=a[c][j];a[c][j]=a[p][j];a[p][j]=t;}
    double pv=a[c][c]; for(int j=0;j<2*D;j++) a[c][j]/=pv;
    for(int r=0;r<D;r++) if(r!=c){double m=a[r][c]; for(int j=0;j<2*D;j++) a[r][j]-=m*a[c][j];}}
  for(int i=0;i<D;i++)for(int j=0;j<D;j++) B[i*D+j]=a[i][j+D];
}
static void jacobi(double*S,double*ev){ /* symmetric eig, S destroyed, ev eigenvalues */
  for(int sw=0;sw<100;sw++){ double off=0;
    for(int p=0;p<D;p++)for(int q=p+1;q<D;q++) off+=S[p*D+q]*S[p*D+q];
    if(off<1e-30) break;
    for(int p=0;p<D;p++)for(int q=p+1;q<D;q++){ if(fabs(S[p*D+q])<1e-300) continue;
      double th=(S[q*D+q]-S[p*D+p])/(2*S[p*D+q]); double t=(th>=0?1:-1)/(fabs(th)+sqrt(th*th+1));
      double c=1/sqrt(t*t+1), s=t*c;
      for(int k=0;k<D;k++){double a=S[k*D+p],b=S[k*D+q]; S[k*D+p]=c*a-s*b; S[k*D+q]=s*a+c*b;}
      for(int k=0;k<D;k++){double a=S[p*D+k],b=S[q*D+k]; S[p*D+k]=c*a-s*b; S[q*D+k]=s*a+c*b;}
    }}
  for(int i=0;i<D;i++) ev[i]=S[i*D+i];
}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b; return x<y?-1:x>y;}
/* local polish in z space: gradient descent with numeric gradient + backtracking (BFGS-lite) */
static double polish(double*z){
  double f=fz(z);
  for(int it=0;it<20000;it++){
    double g[D],h=1e-7, gn=0;
    for(int i=0;i<D;i++){double s=z[i]; z[i]=s+h; double a=fz(z); z[i]=s-h; double b=fz(z); z[i]=s; g[i]=(a-b)/(2*h); gn+=g[i]*g[i];}
    if(gn<1e-22) break;
    double st=1.0; double zn[D];
    while(st>1e-12){ for(int i=0;i<D;i++) zn[i]=z[i]-st*g[i]; double fn=fz(zn); if(fn<f-1e-4*st*gn){memcpy(z,zn,sizeof zn); f=fn; break;} st*=0.5;}
    if(st<=1e-12) break;
  }
  return f;
}
int main(){
  load();
  double S[D*D],ev[D],Mi[D*D];
  for(int i=0;i<D;i++)for(int j=0;j<D;j++){double s=0; for(int k=0;k<D;k++) s+=M[k*D+i]*M[k*D+j]; S[i*D+j]=s;}
  jacobi(S,ev); qsort(ev,D,sizeof(double),cmp);
  printf("singular values of M:"); for(int i=0;i<D;i++) printf(" %.5f",sqrt(fabs(ev[i]))); printf("\ncond(M)=%.3f\n",sqrt(ev[D-1]/ev[0]));
  printf("o ="); for(int i=0;i<D;i++) printf(" %.4f",O[i]); printf("\n");
  inv(M,Mi);
  printf("row norms of M:"); for(int i=0;i<D;i++){double s=0; for(int j=0;j<D;j++) s+=M[i*D+j]*M[i*D+j]; printf(" %.3f",sqrt(s));} printf("\n");
  printf("nonzeros per row of M:"); for(int i=0;i<D;i++){int c=0; for(int j=0;j<D;j++) c+=M[i*D+j]!=0; printf(" %d",c);} printf("\n");
  printf("columns of M^-1 norms (x-distance for unit z_j):"); for(int j=0;j<D;j++){double s=0; for(int i=0;i<D;i++) s+=Mi[i*D+j]*Mi[i*D+j]; printf(" %.3f",sqrt(s));} printf("\n");
  /* 1-D profile of ring function */
  printf("g(r,0)+g(0,r)... single z_j=r, others 0: f-1 = 2*g(r,0)\n");
  for(double r=0;r<=10.01;r+=0.5) printf("  r=%.2f  f=%.6f\n",r,fz((double[D]){r}));
  /* polished minima with z_j ~ +-pi, and pairs */
  for(int j=0;j<D;j++){ double z[D]={0}; z[j]=M_PI; double f=polish(z);
    double x[D]; int inb=1; for(int i=0;i<D;i++){double s=O[i]; for(int k=0;k<D;k++) s+=Mi[i*D+k]*z[k]; x[i]=s; if(fabs(s)>100) inb=0;}
    printf("z_%d=pi polished: f=%.15f  z=",j,f); for(int i=0;i<D;i++) printf(" %.4f",z[i]); printf(" inbounds=%d\n",inb);}
  for(int j=0;j<D;j++) for(int k=j+1;k<D;k++){ double z[D]={0}; z[j]=M_PI; z[k]=M_PI; double f=polish(z); if(k==j+1||k==j+2||j==0) printf("z_%d,z_%d=pi polished: f=%.15f\n",j,k,f);}
  { double z[D]={0}; z[0]=M_PI; z[1]=-M_PI; printf("z0=pi,z1=-pi: %.15f\n",polish(z)); }
  /* pair z_j, z_j+1 on ring radius pi together */
  { double z[D]={0}; z[0]=M_PI/sqrt(2); z[1]=M_PI/sqrt(2); printf("(z0,z1) on ring pi: %.15f  z0=%.4f z1=%.4f\n",polish(z),z[0],z[1]); }
  return 0;
}
