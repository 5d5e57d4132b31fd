// fuzz_variants (session 13): inside a function body, `VertexShader = vert;` and `FragmentShader = frag;` use the
// entry functions' names as values. Variant mode reported them as UseBeforeDeclaration (a name declared anywhere
// in the level was taken for one declared later, whatever it declared); the preserving check reported them as
// UndeclaredIdentifier, which no variant reported. Both now say UndeclaredIdentifier, as glslang does.
Shader "Test RenderState" {
  SubShader "Default" {
    Pass "0" {
        RenderQueueType renderQueueType;
        BlendFactor sourceColorBlendFactor;
        BlendFactor destinationColorBlendFactor;
        BlendFactor sourceAlphaBlendFactor;
        BlendFactor destinationAlphaBlendFactor;
        CullMode rasterStateCullMode;
        Bool blendEnabled;
        Bool depthWriteEnabled;

        DepthState customDepthState {
          WriteEnabled = depthWriteEnabled;
        }

        BlendState customBlendState {
          Enabled = blendEnabled;
          SourceColorBlendFactor = sourceColorBlendFactor;
          DestinationColorBlendFactor = destinationColorBlendFactor;
          SourceAlphaBlendFactor = sourceAlphaBlendFactor;
          DestinationAlphaBlendFactor = destinationAlphaBlendFactor;
        }

        RasterState customRasterState {
          CullMode = rasterStateCullMode;
        }

        DepthState = customDepthState;
        BlendState = customBlendState;
        RasterState = customRasterState;
        RenderQueueType = renderQueueType;
        
      
	mat4 renderer_MVPMat;
    vec4 u_color;

    struct a2v {
      vec4 POSITION;
    };

    struct v2f {
		vec4 test;
    };

    VertexShader = vert;
    FragmentShader = frag;

    v2f vert(a2v v) {
      v2f o;

      gl_Position = renderer_MVPMat * v.POSITION;
      return o;
    }

    void frag(v2f i) {
      gl_FeueType = renderQueueType;
        
      
	mat4 renderer_MVPMat;
    vec4 u_color;

    struct a2v {
      vec4 POSITION;
    };

    struct v2f {
		vec4 test;
    };

    VertexShader = vert;
    FragmentShader = frag;

 ragColor = u_color;
    }
}
	}
}
