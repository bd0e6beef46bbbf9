#include "app/init.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// A Python string literal of `s` in double quotes.
static void put_pystr(hg_buf *b, const char *s) {
  hg_buf_putc(b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      hg_buf_putc(b, '\\');
    hg_buf_putc(b, *s);
  }
  hg_buf_putc(b, '"');
}

static void put_req_ids(hg_buf *b, const hg_policy *p) {
  for (size_t r = 0; r < p->n_req; r++)
    hg_buf_printf(b, "%s%s", r ? ", " : "", p->req[r].id);
}

char *hg_init_module_text(const hg_policy *p) {
  hg_buf b = {0};
  const char *kw = NULL, *argv = NULL;
  for (size_t i = 0; i < p->n_init; i++) {
    hg_shape shape = p->dialects[p->init_dialects[i]].shape;
    if (shape == HG_SHAPE_KEYWORDS && !kw)
      kw = p->init_callables[i];
    if (shape == HG_SHAPE_FLAGS && !argv)
      argv = p->init_callables[i];
  }
  hg_buf_puts(&b, "\"\"\"Container hardening for this project, written by `hardguard init` from hardguard's policy.\n\n"
                  "Every call that creates a container applies one of these, MERGED LAST, so that the\n"
                  "hardening wins over anything the call sets itself:\n\n");
  if (kw)
    hg_buf_printf(&b, "    client.containers.run(image, command, detach=True, **%s())\n", kw);
  if (argv)
    hg_buf_printf(&b, "    subprocess.run([\"docker\", \"run\", \"--rm\", *%s(), image, *command])\n", argv);
  hg_buf_puts(&b, "\nA keyword the call also passes must go (Python refuses a keyword given twice); command-line\n"
                  "flags go right before the image. Each function yields the policy's full set:\n");
  put_req_ids(&b, p);
  hg_buf_puts(&b, ".\nChange a value here, not at a call site: hardguard judges every site by what these return.\n"
                  "\"\"\"\n");
  for (size_t i = 0; i < p->n_init; i++) {
    int d = p->init_dialects[i];
    bool flags = p->dialects[d].shape == HG_SHAPE_FLAGS;
    hg_buf_printf(&b, "\n\ndef %s():\n", p->init_callables[i]);
    if (flags)
      hg_buf_printf(&b,
                    "    \"\"\"docker/podman command-line flags (`%s`): splice `*%s()` right before the image.\"\"\"\n",
                    p->dialects[d].id, p->init_callables[i]);
    else
      hg_buf_printf(&b, "    \"\"\"%s keywords: merge `**%s()` last in the call.\"\"\"\n", p->dialects[d].id,
                    p->init_callables[i]);
    hg_buf_puts(&b, flags ? "    return [\n" : "    return {\n");
    for (size_t r = 0; r < p->n_req; r++) {
      const hg_spelling *s = &p->req[r].spell[d];
      if (flags) {
        hg_buf_puts(&b, "        ");
        for (size_t k = 0; k < s->n_set; k++) {
          put_pystr(&b, s->set[k]);
          hg_buf_puts(&b, k + 1 < s->n_set ? ", " : ",");
        }
        hg_buf_printf(&b, "  # %s\n", p->req[r].id);
        continue;
      }
      for (size_t k = 0; k + 1 < s->n_set; k += 2) {
        hg_buf_puts(&b, "        ");
        put_pystr(&b, s->set[k]);
        hg_buf_printf(&b, ": %s,", s->set[k + 1]);
        hg_buf_printf(&b, k ? "\n" : "  # %s\n", p->req[r].id);
      }
    }
    hg_buf_puts(&b, flags ? "    ]\n" : "    }\n");
  }
  return hg_buf_detach(&b);
}

char *hg_init_config_text(const hg_policy *p, const char *module) {
  hg_buf b = {0};
  hg_buf_puts(&b, "# Written by `hardguard init`: the project's container hardening builder. Every site that\n"
                  "# creates a container applies one of its callables, merged last (see the module's docstring).\n"
                  "builders:\n");
  hg_buf_printf(&b, "  - module: %s\n    callables: [", module);
  for (size_t i = 0; i < p->n_init; i++)
    hg_buf_printf(&b, "%s%s", i ? ", " : "", p->init_callables[i]);
  hg_buf_puts(&b, "]\n");
  return hg_buf_detach(&b);
}

void hg_init_result_free(hg_init_result *self) {
  if (!self)
    return;
  free(self->module);
  free(self->module_path);
  free(self->config_path);
  hg_strv_free(self->created, self->n_created);
  *self = (hg_init_result){0};
}

// `dir`/`name`, without a leading "./" for the working directory.
static char *join(const char *dir, const char *name) {
  return strcmp(dir, ".") ? hg_xasprintf("%s/%s", dir, name) : hg_xstrdup(name);
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

// The packages (directories holding an __init__.py) directly in `dir`, sorted; tests and hidden
// directories are not where a builder goes.
static void packages_in(const char *dir, hg_buf *names, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d)
    return;
  HG_VEC(char *) found = {0};
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *name = e->d_name;
    if (name[0] == '.' || !strcmp(name, "tests") || !strcmp(name, "test") || !hg_dotted_name(name, strlen(name)) ||
        strchr(name, '.'))
      continue;
    char *init = hg_xasprintf("%s/%s/__init__.py", dir, name);
    struct stat st;
    if (stat(init, &st) == 0 && S_ISREG(st.st_mode))
      HG_VEC_PUSH(&found, hg_xstrdup(name));
    free(init);
  }
  closedir(d);
  for (size_t i = 1; i < found.len; i++) // few entries: insertion sort
    for (size_t k = i; k > 0 && strcmp(found.items[k - 1], found.items[k]) > 0; k--) {
      char *t = found.items[k];
      found.items[k] = found.items[k - 1];
      found.items[k - 1] = t;
    }
  for (size_t i = 0; i < found.len; i++)
    hg_buf_printf(names, "%s%s", i ? ", " : "", found.items[i]);
  *n = found.len;
  hg_strv_free(found.items, found.len);
}

// The module to write and the directory its dotted path starts from (dir or dir/src).
static int propose(const hg_policy *p, const char *dir, const char *module, char **out_module, char **out_base,
                   hg_error *err) {
  char *src = join(dir, "src");
  if (module) {
    if (!hg_dotted_name(module, strlen(module))) {
      free(src);
      return hg_error_set(err, "--module: expected a dotted module name, got '%s'", module);
    }
    // A package that lives under src/ (src layout) is written there.
    size_t first = strcspn(module, ".");
    char *pkg = hg_xasprintf("%s/%.*s", src, (int)first, module);
    bool src_layout = is_dir(pkg);
    *out_base = src_layout ? hg_xstrdup(src) : hg_xstrdup(dir);
    *out_module = hg_xstrdup(module);
    free(pkg);
    free(src);
    return 0;
  }
  hg_buf names = {0};
  size_t n = 0;
  const char *base = dir;
  if (is_dir(src)) {
    packages_in(src, &names, &n);
    base = src;
  }
  if (n == 0) {
    hg_buf_free(&names);
    packages_in(dir, &names, &n);
    base = dir;
  }
  int rc = 0;
  if (n > 1) {
    rc = hg_error_set(err, "%s: several packages (%s): name the builder's module with --module PKG.%s", base,
                      names.data, p->init_module);
  } else {
    *out_base = hg_xstrdup(base);
    *out_module = n ? hg_xasprintf("%s.%s", names.data, p->init_module) : hg_xstrdup(p->init_module);
  }
  hg_buf_free(&names);
  free(src);
  return rc;
}

int hg_init_run(hg_init_result *out, const hg_policy *p, const char *dir, const char *module, hg_error *err) {
  *out = (hg_init_result){0};
  if (!p->n_init || !p->init_module)
    return hg_error_set(err, "%s: the policy has no 'init' section (the builder init writes)", p->path);
  if (!is_dir(dir))
    return hg_error_set(err, "%s: not a directory", dir);
  char *mod = NULL, *base = NULL;
  if (propose(p, dir, module, &mod, &base, err) != 0)
    return -1;
  // The files, in the order they are written: missing package directories with their
  // __init__.py, the module, the config.
  HG_VEC(char *) dirs = {0};
  HG_VEC(char *) files = {0};
  HG_VEC(char *) texts = {0};
  hg_buf path = {0};
  if (strcmp(base, "."))
    hg_buf_puts(&path, base);
  for (const char *s = mod;;) {
    const char *dot = strchr(s, '.');
    if (!dot)
      break;
    hg_buf_printf(&path, "%s%.*s", path.len ? "/" : "", (int)(dot - s), s);
    if (!is_dir(path.data)) {
      HG_VEC_PUSH(&dirs, hg_xstrdup(path.data));
      HG_VEC_PUSH(&files, hg_xasprintf("%s/__init__.py", path.data));
      HG_VEC_PUSH(&texts, hg_xstrdup(""));
    }
    s = dot + 1;
  }
  const char *last = strrchr(mod, '.');
  hg_buf_printf(&path, "%s%s.py", path.len ? "/" : "", last ? last + 1 : mod);
  out->module = mod;
  out->module_path = hg_xstrdup(path.data);
  out->config_path = join(dir, ".hardguard.yml");
  HG_VEC_PUSH(&files, hg_xstrdup(out->module_path));
  HG_VEC_PUSH(&texts, hg_init_module_text(p));
  HG_VEC_PUSH(&files, hg_xstrdup(out->config_path));
  HG_VEC_PUSH(&texts, hg_init_config_text(p, mod));
  int rc = 0;
  for (size_t i = 0; i < files.len && rc == 0; i++)
    if (exists(files.items[i]))
      rc = hg_error_set(err, "%s: exists; init writes only new files (nothing was written)", files.items[i]);
  size_t made = 0, written = 0;
  while (rc == 0 && made < dirs.len) {
    if (mkdir(dirs.items[made], 0777) != 0)
      rc = hg_error_set(err, "%s: cannot create: %s (nothing was written)", dirs.items[made], strerror(errno));
    else
      made++;
  }
  while (rc == 0 && written < files.len) {
    if (hg_write_new_file(files.items[written], texts.items[written], strlen(texts.items[written]), 0666, err) != 0)
      rc = -1;
    else
      written++;
  }
  if (rc != 0) {
    // Undo what was written, newest first, so that a failed init leaves the tree as it was.
    while (written > 0)
      unlink(files.items[--written]);
    while (made > 0)
      rmdir(dirs.items[--made]);
    hg_init_result_free(out);
  } else {
    out->created = files.items;
    out->n_created = files.len;
    files.items = NULL;
  }
  if (files.items)
    hg_strv_free(files.items, files.len);
  hg_strv_free(dirs.items, dirs.len);
  hg_strv_free(texts.items, texts.len);
  hg_buf_free(&path);
  free(base);
  return rc;
}
