#!/usr/bin/env python3
"""Writes the seed corpora of fuzz/corpus/<target>/ (run from the repository root): small valid
files copied from data/ and hand-written edge cases. Files named regression-* are inputs that
once broke a reader; this script never touches them. Re-running it rewrites the seed-* files."""
import os, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def copy(target, src, name=None):
    with open(os.path.join(ROOT, src), "rb") as f:
        put(target, name or os.path.basename(src), f.read())


def read(src):
    with open(os.path.join(ROOT, src), "rb") as f:
        return f.read().decode()


# ---- QAPLIB .dat
for inst in ["nug12", "tai10a", "had12", "esc16a", "chr12a", "scr12", "rou12"]:
    copy("qap_dat", f"data/qaplib/{inst}.dat")
nug = read("data/qaplib/nug12.dat")
put("qap_dat", "nug12-crlf.dat", nug.replace("\n", "\r\n"))
put("qap_dat", "nug12-bom-oneline.dat", "\ufeff" + " ".join(nug.split()))
put("qap_dat", "nug12-bks-header.dat", nug.replace("12", "12 578", 1))
put("qap_dat", "n1.dat", "1\n\n5\n\n7\n")
put("qap_dat", "n2-tabs.dat", "2\n0\t1\n1\t0\n\n0 -3\n-3 0\n")
put("qap_dat", "n2-short.dat", "2\n0 1\n1 0\n0 3\n")
put("qap_dat", "n2-extra.dat", "2\n0 1 1 0\n0 3 3 0\n9\n")
put("qap_dat", "n2-big.dat", "2\n9223372036854775807 -9223372036854775808 1 0\n0 99999999999999999999 3 0\n")
put("qap_dat", "n257.dat", "257\n")
put("qap_dat", "n0.dat", "0\n")
put("qap_dat", "nminus.dat", "-1\n")
put("qap_dat", "empty.dat", "")
put("qap_dat", "n256.dat", "256\n1 2 3\n")

# ---- QAPLIB .sln (any base and direction)
for inst in ["nug12", "chr12a", "had12", "tai12a", "ste36a", "tai40a", "esc16a"]:
    copy("qap_sln", f"data/qaplib/sln/{inst}.sln")
put("qap_sln", "commas.sln", "3 10\n1,2,3\n")
put("qap_sln", "zero-based.sln", "3 10\n0 1 2\n")
put("qap_sln", "repeat.sln", "3 10\n1 1 2\n")
put("qap_sln", "short.sln", "3 10\n1 2\n")
put("qap_sln", "extra.sln", "3 10\n1 2 3 4\n")
put("qap_sln", "header-only.sln", "3\n")
put("qap_sln", "crlf.sln", "3 -7\r\n3 1 2\r\n")
put("qap_sln", "empty.sln", "")
put("qap_sln", "bigval.sln", "1 99999999999999999999\n1\n")

# ---- BKS.csv
copy("qap_bks_csv", "data/qaplib/BKS.csv")
bks = read("data/qaplib/BKS.csv")
put("qap_bks_csv", "head.csv", "\n".join(bks.splitlines()[:4]) + "\n")
put("qap_bks_csv", "crlf.csv", "\r\n".join(bks.splitlines()[:4]) + "\r\n")
put("qap_bks_csv", "no-optimal.csv", "instance,n,bks\nnug12,12,578\n")
put("qap_bks_csv", "blank-optimal.csv", "instance,n,bks,optimal_proven\nnug12,12,578,\ntai10a,10,135028,yes\n")
put("qap_bks_csv", "quoted.csv", 'instance,n,bks,optimal_proven\n"nug12",12,"578",TRUE\n')
put("qap_bks_csv", "duplicate.csv", "instance,n,bks,optimal_proven\nnug12,12,578,1\nnug12,12,578,1\n")
put("qap_bks_csv", "bad-optimal.csv", "instance,n,bks,optimal_proven\nnug12,12,578,maybe\n")
put("qap_bks_csv", "ragged.csv", "instance,n,bks,optimal_proven\nnug12,12\n")
put("qap_bks_csv", "header-only.csv", "instance,n,bks,optimal_proven")
put("qap_bks_csv", "empty.csv", "")

# ---- sln_conventions.csv
copy("qap_sln_conventions", "data/qaplib/sln_conventions.csv")
conv = read("data/qaplib/sln_conventions.csv")
put("qap_sln_conventions", "head.csv", "\n".join(conv.splitlines()[:4]) + "\n")
put("qap_sln_conventions", "bad.csv",
    "instance,n,perm_base,perm_convention,header_value,evaluated_value,note\n"
    "a,3,2,direct,1,1,\nb,3,1,sideways,1,1,x\n")
put("qap_sln_conventions", "inverse.csv",
    "instance,n,perm_base,perm_convention,header_value,evaluated_value,note\n"
    "tai40a,40,0,INVERSE,1,1,\"quoted, note\"\r\n")

# ---- permutation text (the CLI's --perm, the C ABI's permutation strings)
for name, text in [("p3", "1 2 3"), ("p3-commas", "3,1,2"), ("p3-zero", "0 1 2"), ("repeat", "1 1 2"),
                   ("empty", ""), ("seps", " ,, \n"), ("neg", "-1 0 1"), ("big", "18446744073709551616 1"),
                   ("p12", "12 7 9 3 4 8 11 1 5 6 10 2")]:
    put("qap_permutation", name, text)

# ---- DIMACS CNF
for f in ["uf20-91/" + sorted(os.listdir(os.path.join(ROOT, "data/satlib/uf20-91")))[0],
          "blocksworld/anomaly.cnf", "flat30-60/flat30-7.cnf", "uuf50-218/uuf50-01.cnf", "ais/ais6.cnf"]:
    copy("sat_cnf", "data/satlib/" + f)
for name, text in [
    ("tiny.cnf", "c tiny\np cnf 3 2\n1 -2 0\n2 3 -1 0\n"),
    ("percent.cnf", "p cnf 2 1\n1 2 0\n%\n0\n"),
    ("no-final-zero.cnf", "p cnf 2 2\n1 2 0 -1\n-2\n"),
    ("multi-line-clause.cnf", "p cnf 3 1\n1\n2\n3 0\n"),
    ("no-header.cnf", "1 2 0\n"),
    ("two-headers.cnf", "p cnf 1 1\np cnf 1 1\n1 0\n"),
    ("empty-clause.cnf", "p cnf 1 1\n0\n"),
    ("out-of-range.cnf", "p cnf 1 1\n2 0\n"),
    ("huge-literal.cnf", "p cnf 5 1\n99999999999999999999999 0\n"),
    ("signed-zero.cnf", "p cnf 2 1\n-0 1 +2 0\n"),
    ("counts.cnf", "p cnf 134217728 0\n"),
    ("too-many-vars.cnf", "p cnf 134217729 1\n1 0\n"),
    ("too-many-clauses.cnf", "p cnf 2 1\n1 0 2 0\n"),
    ("crlf.cnf", "c x\r\np cnf 2 1\r\n1 -2 0\r\n"),
    ("empty.cnf", ""),
]:
    put("sat_cnf", name, text)

# ---- assignments (first line: the number of variables)
v40 = "v 1 -2 3 -4 5 -6 7 -8 9 -10 11 -12 13 -14 15 -16 17 -18 19 -20 21 -22\nv -23 24 -25 26 -27 28 -29 30 -31 32 -33 34 -35 36 -37 38 -39 40 0\n"
for name, text in [
    ("competition", "40\nc solver\ns SATISFIABLE\n" + v40),
    ("two-answers", "40\n" + v40 + v40),
    ("plain-lines", "3\n1 -2 3 0\n-1 2\n"),
    ("bits", "8\n01010101\n11111111\n"),
    ("bits-wrong-length", "8\n0101\n"),
    ("both-signs", "3\n1 -1\n"),
    ("after-zero", "3\n1 0 2\n"),
    ("open-v", "3\nv 1 2\nv 3\n"),
    ("plain-in-v", "3\nv 1 2\n-3\n"),
    ("status-in-v", "3\nv 1\ns SATISFIABLE\n"),
    ("zero-vars", "0\n0\n\n"),
    ("one-var", "1\n1\nv -1 0\nV 1 0\n"),
    ("comments", "5\nc x\n%\n\n"),
]:
    put("sat_assignments", name, text)

# ---- the accuracy fixture: the real header, 2 points and 2 values per function
fx = read("tests/fixtures/functions_d10.txt").splitlines() if os.path.exists(
    os.path.join(ROOT, "tests/fixtures/functions_d10.txt")) else []
if fx:
    head = [l for l in fx[:5]]
    pts = fx[5:7]
    out = [l.replace("count 10000", "count 2") for l in head] + pts
    i = 5 + 10000
    while i < len(fx):
        l = fx[i]
        if l.startswith("function"):
            out += [l, fx[i + 1], fx[i + 2]]
            i += 10001
        elif l.startswith("alias"):
            out.append(l)
            i += 1
        else:
            i += 1
        if len(out) > 60:
            break
    put("functions_fixture", "small.txt", "\n".join(out) + "\n")
    put("double_double", "ref1", fx[10006])
    put("double_double", "ref2", fx[20008])
for name, text in [
    ("tiny.txt", "dims 2\ncount 1\npoints\n1 2\nfunction f -1 1\n0.5\nalias g f\n"),
    ("alias-unknown.txt", "dims 1\ncount 0\npoints\nalias g f\n"),
    ("bad-key.txt", "dims 1\nkount 1\n"),
    ("huge-counts.txt", "dims 4294967296\ncount 4294967296\npoints\n"),
    ("ends-in-function.txt", "# c\ndims 1\ncount 2\npoints\n1\n2\nfunction f 0 1\n1.5\n"),
]:
    put("functions_fixture", name, text)

# ---- decimal text as double-double
for name, text in [("one", "1"), ("tenth", "0.1"), ("pi50", "3.1415926535897932384626433832795028841971693993751"),
                   ("neg", "-2.5e-10"), ("max", "1.7976931348623157e308"), ("overflow", "1e309"),
                   ("subnormal", "4.9406564584124654e-324"), ("tiny", "1e-400"), ("nan", "NaN"), ("inf", "-inf"),
                   ("zero", "-0.0"), ("plus", "+12345678901234567890.123456789"), ("exp", "1E+5"), ("dot", ".5"),
                   ("trailing", "5.")]:
    put("double_double", name, text)

# ---- option names
for name in ["rand1", "DE/rand/1", "de_best_2", "current-to-best/1", "sat", "sat,mir,tor,HVB,uni,COTN",
             "cotn, uni", "None", "PermuteN", "randtarget", "linspace", "const_min", "GC", "bc", "int32",
             "float64", "single", "", ","]:
    put("option_names", name.replace("/", "_").replace(",", "_").replace(" ", "_") or "empty", name)

# ---- knapsack files: the shared instances (knapsack-100 whole, cuts of the others) and edge cases
copy("knapsack", "data/knapsack/knapsack-100.txt")
for inst, lines in [("knapsack-250", 14), ("knapsack-1000", 10)]:
    put("knapsack", f"{inst}-cut.txt", "\n".join(read(f"data/knapsack/{inst}.txt").splitlines()[:lines]) + "\n")
k250 = read("data/knapsack/knapsack-250.txt")
put("knapsack", "crlf-bom.txt", "\ufeff" + "\n".join(k250.splitlines()[:9]).replace("\n", "\r\n"))
for name, text in [
    ("count-first.txt", "4 10\n4 5\n6 7\n5 5\n3 1\n"),
    ("count-first-short.txt", "3 10\n4 5\n"),
    ("count-first-huge.txt", "18446744073709551616 10\n1 1\n"),
    ("one-item.txt", "# capacity\n0\n# weight price\n1 0\n"),
    ("decimals-9.txt", "0.000000001\n0.000000001 0.123456789\n2 3\n"),
    ("decimals-10.txt", "1\n0.0000000001 1\n"),
    ("too-large.txt", "1\n5000000000000000000 1\n5000000000000000000 1\n"),
    ("capacity-huge.txt", "1e300\n1.5 2.5\n2 3\n"),
    ("bad-values.txt", "10\n1 nan\n-1 2\n0 1\n1 inf\n"),
    ("three-values.txt", "10\n1 2 3\n"),
    ("no-items.txt", "# capacity\n5\n# weight price\n"),
]:
    put("knapsack", name, text)

# ---- QIGA rotation tables: the presets' text forms (as RotationTable::to_text writes them) and edge cases
GQA2000 = """# x b better steps(pi/200) ab>0 ab<0 a=0 b=0
0 0 0 0 0 0 0 0
0 0 1 0 0 0 0 0
0 1 0 0 0 0 0 0
0 1 1 10 -1 +1 +1 0
1 0 0 2 -1 +1 +1 0
1 0 1 5 +1 -1 0 +1
1 1 0 1 +1 -1 0 +1
1 1 1 5 +1 -1 0 +1
"""
put("qiga_table", "gqa2000.txt", GQA2000)
put("qiga_table", "qea2002.txt", "0 1 0 2 +1 -1 0 r\n1 0 false 2 -1 +1 random 0\n")
for name, text in [
    ("empty.txt", ""),
    ("comment-only.txt", "# nothing rotates\n"),
    ("twice.txt", "0 1 1 10 -1 +1 +1 0\n0 1 true 3 0 0 0 0\n"),
    ("too-far.txt", "1 1 1 201 +1 -1 0 +1\n"),
    ("short-row.txt", "1 1 1 5 +1 -1\n"),
    ("bad-sign.txt", "1 1 1 5 +2 -1 0 +1\n"),
    ("bad-bit.txt", "2 1 1 5 +1 -1 0 +1\n"),
    ("crlf.txt", GQA2000.replace("\n", "\r\n")),
]:
    put("qiga_table", name, text)

# ---- graphs: DIMACS .gr, MatrixMarket .mtx (text) and OpenStreetMap .osm.pbf (binary)
for name, text in [
    ("small.gr", "c a small graph\np sp 4 5\na 1 2 3\na 2 3 4\na 1 3 9\na 3 4 1\na 4 1 2\n"),
    ("real.gr", "p sp 3 3\na 1 2 2.5\na 2 3 0.25\na 1 3 3\n"),
    ("u64.gr", "p sp 3 2\na 1 2 9223372036854775807\na 2 3 9223372036854775807\n"),
    ("u64-max.gr", "p sp 3 2\na 1 2 18446744073709551615\na 2 3 1\n"),
    ("f64-overflow.gr", "p sp 3 2\na 1 2 1e308\na 2 3 1e308\n"),
    ("vertices-unbacked.gr", "p sp 600000000 1\na 1 2 3\n"),
    ("isolated.gr", "p sp 1048578 1\na 1 2 3\n"),
    ("loops-duplicates.gr", "p sp 3 4\na 1 1 5\na 1 2 7\na 1 2 4\na 2 3 0\n"),
    ("bad-weights.gr", "p sp 3 3\na 1 2 nan\na 2 3 -1\na 1 3 inf\n"),
    ("crlf.gr", "p sp 2 1\r\na 1 2 1\r\n"),
    ("long-token.gr", "p sp 2 1\na 1 2 " + "9" * 300 + "x\n"),
    ("control.gr", "p sp 2 1\na 1 2 \x1b[31m\x07\n"),
]:
    put("graph_dimacs", name, text)

for name, text in [
    ("general.mtx", "%%MatrixMarket matrix coordinate real general\n% a comment\n3 3 4\n1 2 1.5\n2 3 2\n3 1 0.5\n1 3 9\n"),
    ("symmetric.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 4\n3 2 5\n"),
    ("pattern.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 3\n1 2\n2 3\n3 4\n"),
    ("overflow.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1e308\n2 3 1e308\n"),
    ("unbacked.mtx", "%%MatrixMarket matrix coordinate real general\n600000000 600000000 1\n1 2 1\n"),
    ("bad-values.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 nan\n2 1 -3\n"),
    ("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"),
    ("not-square.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 2 1\n"),
]:
    put("graph_matrix_market", name, text)


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(v):
    return (v << 1) ^ (v >> 63)


def field(num, wire, payload):
    key = varint(num << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def packed(values, signed=False, delta=False):
    out, prev = bytearray(), 0
    for v in values:
        x = v - prev if delta else v
        prev = v
        out += varint(zigzag(x) if signed else x)
    return bytes(out)


def blob(kind, data, compress):
    import zlib
    if compress:
        body = field(2, 0, len(data)) + field(3, 2, zlib.compress(data))
    else:
        body = field(1, 2, data)
    header = field(1, 2, kind.encode()) + field(3, 0, len(body))
    return len(header).to_bytes(4, "big") + header + body


def osm_pbf(nodes, ways, compress=False, dense=True):
    """nodes: [(id, lat, lon)], ways: [(id, [refs], {tag: value})] -> .osm.pbf bytes."""
    strings = [""]

    def s(x):
        if x not in strings:
            strings.append(x)
        return strings.index(x)

    way_msgs = []
    for wid, refs, tags in ways:
        keys = [s(k) for k in tags]
        vals = [s(v) for v in tags.values()]
        way_msgs.append(field(1, 0, wid) + field(2, 2, packed(keys)) + field(3, 2, packed(vals))
                        + field(8, 2, packed(refs, signed=True, delta=True)))
    # granularity 100 nanodegrees: lat = 1e-9 * 100 * value
    lat = [round(n[1] * 1e7) for n in nodes]
    lon = [round(n[2] * 1e7) for n in nodes]
    if dense:
        group_nodes = field(2, 2, field(1, 2, packed([n[0] for n in nodes], True, True))
                            + field(8, 2, packed(lat, True, True)) + field(9, 2, packed(lon, True, True)))
    else:
        group_nodes = b"".join(field(1, 2, field(1, 0, zigzag(n[0])) + field(8, 0, zigzag(a)) + field(9, 0, zigzag(o)))
                               for n, a, o in zip(nodes, lat, lon))
    table = field(1, 2, b"".join(field(1, 2, x.encode()) for x in strings))
    block = table + field(2, 2, group_nodes) + field(2, 2, b"".join(field(3, 2, w) for w in way_msgs))
    header = field(4, 2, b"OsmSchema-V0.6") + field(4, 2, b"DenseNodes")
    return blob("OSMHeader", header, compress) + blob("OSMData", block, compress)


NODES = [(1, 60.1700, 24.9400), (2, 60.1710, 24.9410), (3, 60.1720, 24.9400), (5, 60.1705, 24.9420)]
WAYS = [
    (10, [1, 2, 3], {"highway": "residential"}),
    (11, [3, 5], {"highway": "footway", "oneway": "yes"}),
    (12, [5, 1, 2], {"highway": "primary", "junction": "roundabout"}),
    (13, [2, 9], {"highway": "service"}),  # node 9 is not in the file
]
put("graph_osm_pbf", "small.osm.pbf", osm_pbf(NODES, WAYS))
put("graph_osm_pbf", "small-zlib.osm.pbf", osm_pbf(NODES, WAYS, compress=True))
put("graph_osm_pbf", "small-nodes.osm.pbf", osm_pbf(NODES, WAYS, dense=False))
put("graph_osm_pbf", "no-highway.osm.pbf", osm_pbf(NODES, [(10, [1, 2], {"name": "x"})]))
put("graph_osm_pbf", "empty.osm.pbf", b"")
