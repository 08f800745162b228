# The histogram series changes this test to check the new limit of
# four sort keys (patches/0099-ftrace-hist-five-sort-keys.patch); the
# ftracetest the VM runs is the base's, so the same change is made here:
# five sort keys, refused with the caret under "sort=".
s/\^sort=common_pid,bytes_req,bytes_alloc'/^sort=common_pid,bytes_req,bytes_alloc,hitcount,common_pid'/
