/* floe render: pictures of a run's outputs (docs/render.md). */
#ifndef FLOE_APP_RENDER_H
#define FLOE_APP_RENDER_H

/* Runs the renderer on argv[1..argc) (argv[0] is "render"); returns only
 * when it could not be started, with the exit status to give. */
int floe_cli_render(int argc, char **argv);

#endif
