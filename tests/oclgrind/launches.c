/* The kernel launches of a process, for scripts/oclgrind-check.py: a library that the OpenCL
 * bindings load in place of libOpenCL.so.1 (OPENCL_DYLIB_PATH). It depends on libOpenCL.so.1, so
 * every other entry point resolves there; clEnqueueNDRangeKernel appends a line "kernel<TAB>device
 * name" to the file named by METAOPT_LAUNCH_LOG and then calls the loader's. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef cl_int (*enqueue_fn)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                             const size_t *, cl_uint, const cl_event *, cl_event *);

static void note(cl_command_queue queue, cl_kernel kernel)
{
    const char *path = getenv("METAOPT_LAUNCH_LOG");
    char line[1024];
    size_t len = 0, dlen = 0;
    cl_device_id device;
    if (!path || !*path)
        return;
    if (clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 400, line, &len) != CL_SUCCESS
        || len == 0 || len > 400)
        strcpy(line, "?"), len = 2;
    /* len counts the terminating zero: it becomes the tab */
    line[len - 1] = '\t';
    if (clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL) != CL_SUCCESS
        || clGetDeviceInfo(device, CL_DEVICE_NAME, 400, line + len, &dlen) != CL_SUCCESS
        || dlen == 0 || dlen > 400)
        strcpy(line + len, "?"), dlen = 2;
    len += dlen;
    line[len - 1] = '\n';
    /* one write of a whole line to a file opened for appending: lines of threads do not mix */
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    ssize_t unused = write(fd, line, len);
    (void)unused;
    close(fd);
}

static enqueue_fn real;

__attribute__((constructor)) static void find_real(void)
{
    real = (enqueue_fn)dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset,
    const size_t *global, const size_t *local, cl_uint waits, const cl_event *wait_list,
    cl_event *event)
{
    if (!real)
        return CL_INVALID_OPERATION;
    note(queue, kernel);
    return real(queue, kernel, dims, offset, global, local, waits, wait_list, event);
}
