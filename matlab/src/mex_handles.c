/*
 * mex_handles.c: the instances of the metaopt MEX gateway, one mechanism for every kind
 * (declared in mex_internal.h).
 *
 * Instances are uint8 arrays of a fixed layout (struct Token): a magic header, the kind, a
 * slot in this gateway's table and the instance's serial number. No pointer travels through
 * MATLAB: every use (entry_get) checks the size, the magic, the check word, that the slot still
 * holds that serial, the kind, and that no call of the instance is running, so a forged, edited,
 * freed or foreign array is a clear error, never a crash. Each slot holds an Entry: the kind
 * (an EntryKind, which says how to free and describe its state), the kind's state, and the
 * running call that may call an m-function objective (call_begin / call_end: the busy flag).
 * entry_free frees any kind; clearing the MEX function (or leaving MATLAB) frees every
 * instance still live.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mex_internal.h"

/* What MATLAB holds: a uint8 array of exactly this struct. */
typedef struct {
    char magic[8];   /* "metaopt\x01" */
    uint32_t kind;   /* KIND_* */
    uint32_t slot;   /* index in g_entries */
    uint64_t serial; /* the instance's number, never reused while the MEX is loaded */
    uint64_t check;  /* serial ^ kind ^ slot ^ TOKEN_KEY: an edited token is caught */
} Token;

static const char TOKEN_MAGIC[8] = {'m', 'e', 't', 'a', 'o', 'p', 't', 1};
#define TOKEN_KEY 0x9e3779b97f4a7c15ull

/* The table of instances: g_capacity pointers, each NULL or an Entry that stays where it is
 * for as long as the MEX file is loaded (a freed slot is reused), because the library keeps
 * an Entry's address as the user data of an m-function objective: growing the table must not
 * move the entries. */
static Entry **g_entries;
static uint32_t g_capacity;
/* Serial numbers start at a value drawn when the MEX file is loaded, so that an instance array
 * kept from before a `clear metaopt_mex` never matches an instance made after it. */
static uint64_t g_first_serial, g_next_serial;
static int g_atexit;
/* Library calls running now (nested through m-function objectives); while any runs the MEX
 * file is locked (mexLock, if the user had not locked it), so that `clear metaopt_mex` from an
 * objective cannot free the instances in use. */
static uint32_t g_running;
static int g_locked;

const char *kind_name(uint32_t id) {
    for (const EntryKind *const *k = mex_kinds; *k; ++k)
        if ((*k)->id == id)
            return (*k)->name;
    return "unknown";
}

void entry_free(Entry *e) {
    if (e->state) {
        e->kind->release(e->state);
        free(e->state);
    }
    memset(e, 0, sizeof *e);
}

static void free_all(void) {
    for (uint32_t i = 0; i < g_capacity; ++i) {
        if (g_entries[i] && g_entries[i]->serial)
            entry_free(g_entries[i]);
        free(g_entries[i]);
    }
    free(g_entries);
    g_entries = NULL;
    g_capacity = 0;
}

uint32_t entry_live_count(const EntryKind *kind) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < g_capacity; ++i)
        if (g_entries[i] && g_entries[i]->serial && (!kind || g_entries[i]->kind == kind))
            ++n;
    return n;
}

/* When the MEX file is cleared or the interpreter ends: the device program builds still
 * running first (a call cut in its build leaves the compiler running, and the process must not
 * end under it), then every instance. */
static void at_exit(void) {
    MetaoptInt32Result r = metaopt_device_finish_builds();
    metaopt_pointer_free(r.error_message);
    free_all();
}

void register_at_exit(void) {
    if (!g_atexit) {
        mexAtExit(at_exit);
        g_atexit = 1;
    }
}

Entry *entry_new(const EntryKind *kind, mxArray **out) {
    if (!g_first_serial) {
        register_at_exit();
        g_first_serial = g_next_serial = ((uint64_t)time(NULL) << 20) ^ ((uint64_t)clock() << 40) ^ (uint64_t)(uintptr_t)&g_mode;
        g_first_serial = g_next_serial = (g_next_serial & 0x7fffffffffffffffull) | 1;
    }
    uint32_t slot = 0;
    while (slot < g_capacity && g_entries[slot] && g_entries[slot]->serial)
        ++slot;
    if (slot == g_capacity) {
        uint32_t cap = g_capacity ? 2 * g_capacity : 16;
        Entry **p = realloc(g_entries, cap * sizeof *p);
        if (!p)
            fail("outOfMemory", "cannot grow the instance table");
        memset(p + g_capacity, 0, (cap - g_capacity) * sizeof *p);
        g_entries = p;
        g_capacity = cap;
    }
    if (!g_entries[slot] && !(g_entries[slot] = calloc(1, sizeof(Entry))))
        fail("outOfMemory", "cannot allocate an instance");
    void *state = calloc(1, kind->state_size);
    if (!state)
        fail("outOfMemory", "cannot allocate an instance");
    Entry *e = g_entries[slot];
    memset(e, 0, sizeof *e);
    e->serial = g_next_serial++;
    e->kind = kind;
    e->state = state;
    Token t;
    memcpy(t.magic, TOKEN_MAGIC, sizeof t.magic);
    t.kind = kind->id;
    t.slot = slot;
    t.serial = e->serial;
    t.check = t.serial ^ t.kind ^ t.slot ^ TOKEN_KEY;
    *out = mxCreateNumericMatrix(1, sizeof t, mxUINT8_CLASS, mxREAL);
    memcpy(mxGetData(*out), &t, sizeof t);
    return e;
}

Entry *entry_get(const mxArray *a, const EntryKind *kind) {
    Token t;
    if (!mxIsUint8(a) || mxIsComplex(a))
        fail("badHandle", "instance must be the uint8 array that 'params' (or 'sat-parse', ...) returned, got a %s array",
             mxGetClassName(a));
    if (mxGetNumberOfElements(a) != sizeof t)
        fail("badHandle", "instance has %zu bytes; an instance has %zu", (size_t)mxGetNumberOfElements(a), sizeof t);
    memcpy(&t, mxGetData(a), sizeof t);
    if (memcmp(t.magic, TOKEN_MAGIC, sizeof t.magic) != 0)
        fail("badHandle", "instance has no metaopt magic header (not an instance, or corrupted)");
    if (t.check != (t.serial ^ t.kind ^ t.slot ^ TOKEN_KEY))
        fail("badHandle", "instance is corrupted (its check word does not match)");
    if (t.slot >= g_capacity || !g_entries[t.slot] || g_entries[t.slot]->serial != t.serial) {
        if (t.serial >= g_first_serial && t.serial < g_next_serial)
            fail("freedHandle", "instance was freed already");
        fail("freedHandle", "instance was not made by this session of the MEX function (it was cleared, or the array is forged)");
    }
    Entry *e = g_entries[t.slot];
    if (t.kind != e->kind->id)
        fail("badHandle", "instance is forged: it says %s, but instance %u is a %s instance", kind_name(t.kind), t.slot + 1,
             e->kind->name);
    if (kind && e->kind != kind)
        fail("wrongKind", "instance is a %s instance; this mode needs a %s instance", e->kind->name, kind->name);
    if (e->busy)
        fail("busy",
             "instance %u (%s) is in use by the call '%s' still running: its m-function objective cannot use "
             "it (nor free it) until that call returns",
             t.slot + 1, e->kind->name, e->busy);
    return e;
}

void call_begin(Entry *e, const mxArray *fun) { call_begin_with(e, fun, NULL); }

void call_begin_with(Entry *e, const mxArray *fun, const mxArray *viol) {
    e->busy = g_mode;
    e->fun = fun;
    e->viol = viol;
    e->fun_calls = 0;
    e->fun_error = NULL;
    e->fun_exception = NULL;
    e->fun_interrupted = 0;
    if (g_running++ == 0 && !mexIsLocked()) {
        mexLock();
        g_locked = 1;
    }
}

void call_end(Entry *e) {
    e->busy = NULL;
    e->fun = NULL;
    e->viol = NULL;
    if (--g_running == 0 && g_locked) {
        mexUnlock();
        g_locked = 0;
    }
}
