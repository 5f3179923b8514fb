// LeakSanitizer's built-in suppressions for the sanitizer build (-DGRUNDY_SANITIZE=ON, which
// CI runs): libedit keeps a few wide strings (wcsdup) for the life of the process and does
// not free them in el_end(); fontconfig, which the drawing module's text loads (plot), keeps
// its caches until the process ends. They are not ours to free; every other leak still fails a
// test.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __lsan_default_suppressions() { return "leak:wcsdup\nleak:libedit.so\nleak:libfontconfig.so\n"; }
#endif
