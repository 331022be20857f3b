/*
 * awvd.c: the additively weighted Voronoi diagram of the atoms of a PDB / mmCIF file (or the
 * balls of an `x y z r` file) through the C ABI: the balls read with Voronota's radii, the
 * diagram on the device in use or the CPU backend, every vertex's sphere checked against its
 * four balls, the counts printed, and the vertices in Voronota's format written to a file.
 *
 *   c_examples/awvd data/pdb/1ubq.pdb [cpu|device] [vertices.txt]
 *
 * Exit status 0 on success, 1 on a library error or a failed check, 2 on bad arguments.
 */

#include <stdio.h>
#include <string.h>

#include "metaopt.h"

static int library_error(const char *call, int32_t code, char *message) {
    fprintf(stderr, "%s failed (%d): %s\n", call, code, message ? message : "(no message)");
    metaopt_pointer_free(message);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4 || (argc > 2 && strcmp(argv[2], "cpu") != 0 && strcmp(argv[2], "device") != 0)) {
        fprintf(stderr, "usage: %s FILE.pdb|FILE.cif|balls.txt [cpu|device] [vertices.txt]\n", argv[0]);
        return 2;
    }
    MetaoptAwvdBalls b = metaopt_awvd_read_balls(argv[1], 0);
    if (b.error_code != METAOPT_OK) {
        int32_t code = b.error_code;
        char *m = b.error_message;
        b.error_message = NULL;
        metaopt_awvd_free_balls(&b);
        return library_error("metaopt_awvd_read_balls", code, m);
    }
    printf("balls: %u\n", b.n);
    MetaoptAwvdOptions o = metaopt_awvd_default_options();
    if (argc > 2 && strcmp(argv[2], "cpu") == 0) o.backend = METAOPT_BACKEND_CPU;
    MetaoptAwvdResult r = metaopt_awvd_build(b.x, b.y, b.z, b.r, b.n, &o);
    if (r.error_code != METAOPT_OK) {
        int32_t code = r.error_code;
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_awvd_free_result(&r);
        metaopt_awvd_free_balls(&b);
        return library_error("metaopt_awvd_build", code, m);
    }
    printf("backend: %s\n", r.backend);
    printf("vertices: %llu\ncontacts: %llu\n", (unsigned long long)r.vertices, (unsigned long long)r.contacts);
    printf("searches: %llu, restarts: %llu, double re-checks: %llu, float winners replaced: %llu\n",
           (unsigned long long)r.searches, (unsigned long long)r.restarts, (unsigned long long)r.double_rechecks,
           (unsigned long long)r.float_replaced);
    int status = 0;
    MetaoptAwvdVertices v = metaopt_awvd_vertices(r.awvd);
    if (v.error_code != METAOPT_OK) {
        int32_t code = v.error_code;
        char *m = v.error_message;
        v.error_message = NULL;
        status = library_error("metaopt_awvd_vertices", code, m);
    } else {
        /* each sphere touches its four balls: |c - c_i| = r + r_i, checked as
         * (|c - c_i|^2 - (r + r_i)^2) / (2 (r + r_i)), the distance error to first order */
        double worst = 0.0;
        for (uint64_t i = 0; i < v.n; i++) {
            const double *s = &v.spheres[4 * i];
            for (int k = 0; k < 4; k++) {
                uint32_t j = v.quadruples[4 * i + k];
                double dx = s[0] - b.x[j], dy = s[1] - b.y[j], dz = s[2] - b.z[j];
                double t = s[3] + b.r[j];
                double e = (dx * dx + dy * dy + dz * dz - t * t) / (2.0 * t);
                if (e < 0) e = -e;
                if (e > worst) worst = e;
            }
        }
        printf("tangency: worst error %.3g (%s)\n", worst, worst < 1e-6 ? "ok" : "FAILED");
        if (worst >= 1e-6) status = 1;
    }
    metaopt_awvd_free_vertices(&v);
    MetaoptAwvdEdges e = metaopt_awvd_edges(r.awvd);
    if (e.error_code == METAOPT_OK) {
        uint64_t unbounded = 0;
        for (uint64_t i = 0; i < 4 * e.n; i++) unbounded += e.neighbours[i] < 0;
        printf("unbounded edges: %llu\n", (unsigned long long)unbounded);
    } else {
        int32_t code = e.error_code;
        char *m = e.error_message;
        e.error_message = NULL;
        status = library_error("metaopt_awvd_edges", code, m);
    }
    metaopt_awvd_free_edges(&e);
    if (argc > 3 && status == 0) {
        MetaoptStringResult t = metaopt_awvd_vertices_text(r.awvd);
        if (t.error_code != METAOPT_OK) {
            status = library_error("metaopt_awvd_vertices_text", t.error_code, t.error_message);
        } else {
            FILE *f = fopen(argv[3], "w");
            if (!f || fputs(t.text, f) < 0 || fclose(f) != 0) {
                fprintf(stderr, "cannot write %s\n", argv[3]);
                status = 1;
            } else {
                printf("vertices written to %s\n", argv[3]);
            }
            metaopt_pointer_free(t.text);
        }
    }
    metaopt_awvd_free(r.awvd);
    metaopt_awvd_free_result(&r);
    metaopt_awvd_free_balls(&b);
    return status;
}
